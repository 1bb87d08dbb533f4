import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { LOAD_MS } from '../fixtures/slow-load/fx-slow-load/tool.js';
import { NO_TOOLS } from '../helpers.js';

const SLOW_LOAD = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'slow-load');

/**
 * On a starved machine the workers can take longer to load their tools than fastify's
 * plugin timeout (seen in CI): the boot must go on, `/readyz` must say not ready until the
 * workers are up, and the first runs wait for them.
 */
describe('a pool slow to load its tools', () => {
  it('does not fail the boot, is not ready until loaded, and runs once the workers are up', async () => {
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
      // The fixture's module takes 12 s to load; the boot stopped waiting after 5 s.
      const early = await app.inject({ url: '/readyz' });
      expect(early.statusCode).toBe(503);
      expect(early.json()).toMatchObject({ ok: false, status: 'not-ready' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-slow-load', input: { a: 'hi' } },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(JSON.parse(res.body).result).toEqual({ text: 'hi' });
      await app.pool.warmUp();
      expect((await app.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  }, 90_000);

  it('shuts down without waiting for workers that are still loading', async () => {
    const started = Date.now();
    const app = await buildApp({
      logger: false,
      toolsDir: NO_TOOLS,
      env: { LOG_LEVEL: 'silent', EXTRA_TOOL_DIRS: SLOW_LOAD, POOL_THREADS: '1' },
    });
    await app.ready();
    expect(app.pool.warm).toBe(false);
    await app.close();
    // Every worker was still inside the fixture's LOAD_MS load: close did not wait it out.
    expect(Date.now() - started).toBeLessThan(LOAD_MS);
  }, 90_000);
});
