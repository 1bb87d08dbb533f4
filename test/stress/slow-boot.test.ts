import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { LOAD_MS } from '../fixtures/slow-load/fx-slow-load/tool.js';
import { NO_TOOLS } from '../helpers.js';

const SLOW_LOAD = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'slow-load');

/**
 * Workers load a tool's module on its first run, not at boot (workers/tool-worker.ts), so a
 * tool slow to load (here 12 s, longer than fastify's plugin timeout) costs the boot nothing:
 * the hub is ready at once, the tool's first run waits for the load without it counting
 * against the run's deadline (300 ms here), and a shutdown right after boot has nothing to wait for.
 */
describe('a tool slow to load', () => {
  it('does not hold the boot; its first run waits for the load, not against its deadline', async () => {
    // buildApp itself, not buildTestApp: that one waits for a warm pool.
    const app = await buildApp({
      logger: false,
      toolsDir: NO_TOOLS,
      env: {
        LOG_LEVEL: 'silent',
        EXTRA_TOOL_DIRS: SLOW_LOAD,
        POOL_THREADS: '1',
        QUEUE_WAIT_MS: '30000',
        PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      },
    });
    try {
      await app.ready();
      expect(app.pool.warm).toBe(true);
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode, ready.body).toBe(200);
      const res = await app.inject({
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-slow-load', input: { a: 'hi' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.parse(res.body).result).toEqual({ text: 'hi' });
    } finally {
      await app.close();
    }
  }, 90_000);

  it('shuts down right after boot without waiting for any tool to load', async () => {
    const started = Date.now();
    const app = await buildApp({
      logger: false,
      toolsDir: NO_TOOLS,
      env: { LOG_LEVEL: 'silent', EXTRA_TOOL_DIRS: SLOW_LOAD, POOL_THREADS: '1' },
    });
    await app.ready();
    await app.close();
    // Loading the tool takes LOAD_MS; a boot and close that loaded it could not end sooner.
    expect(Date.now() - started).toBeLessThan(LOAD_MS);
  }, 90_000);
});
