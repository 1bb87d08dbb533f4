import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../test/helpers.js';
import { promtool } from '../test/promtool.js';

describe('the /metrics scrape', () => {
  it('passes promtool check metrics (from Debian package prometheus: npm test provisions it)', async () => {
    promtool(['--version']); // fails at once, saying how to get it, when it is missing
    const app = await buildTestApp();
    try {
      // Runs with every outcome label so labelled series exist too.
      await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=hi' });
      await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=bad' });
      const scrape = await app.inject({ url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      const check = promtool(['check', 'metrics'], scrape.body);
      expect(check.stdout + check.stderr).toBe('');
      expect(check.status).toBe(0);
      expect(scrape.body).toContain('toolhub_runs_total');
      expect(scrape.body).not.toMatch(/^# TYPE \S+_total gauge$/m);
    } finally {
      await app.close();
    }
  });
});
