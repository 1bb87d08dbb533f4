import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/helpers.js';

describe('the /metrics scrape', () => {
  it('passes promtool check metrics (Debian package prometheus)', async () => {
    const probe = spawnSync('promtool', ['--version']);
    if (probe.error) {
      throw new Error("promtool is missing: install Debian's package 'prometheus' (.ci/run does)");
    }
    const app = await buildTestApp();
    try {
      // Runs with every outcome label so labelled series exist too.
      await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=hi' });
      await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=bad' });
      const scrape = await app.inject({ url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      const check = spawnSync('promtool', ['check', 'metrics'], { input: scrape.body, encoding: 'utf8' });
      expect(check.stdout + check.stderr).toBe('');
      expect(check.status).toBe(0);
      expect(scrape.body).toContain('toolhub_runs_total');
      expect(scrape.body).not.toMatch(/^# TYPE \S+_total gauge$/m);
    } finally {
      await app.close();
    }
  });
});
