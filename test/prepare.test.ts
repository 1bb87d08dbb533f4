import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { SETUP_MS } from './fixtures/slow-prepare/fx-slow-prepare/tool.js';
import { NO_TOOLS } from './helpers.js';

const SLOW_PREPARE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'slow-prepare');

/**
 * A tool's set-up for an input (its run module's `prepare` export, e.g. token-counter's
 * tables) runs before the run's deadline starts: on a cold worker, a good run whose set-up
 * takes longer than its `timeoutMs` still succeeds (docs/architecture.md, "Set-up outside the deadline").
 */
describe('set-up outside the deadline', () => {
  it(`first runs on cold workers succeed although the set-up (${SETUP_MS} ms) outlasts the deadline (300 ms)`, async () => {
    const app = await buildApp({
      logger: false,
      toolsDir: NO_TOOLS,
      env: { LOG_LEVEL: 'silent', EXTRA_TOOL_DIRS: SLOW_PREPARE, POOL_THREADS: '2' },
    });
    try {
      await app.ready();
      const run = (text: string) =>
        app.inject({
          method: 'POST',
          url: '/api/tools/run/',
          payload: { toolId: 'fx-slow-prepare', input: { a: text } },
        });
      // Together: they spread over several cold workers, each preparing for itself.
      const answers = await Promise.all(['one', 'two', 'three', 'four'].map(run));
      for (const [i, res] of answers.entries()) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().result).toEqual({ text: ['one', 'two', 'three', 'four'][i] });
      }
    } finally {
      await app.close();
    }
  }, 60_000);
});
