import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers.js';

const SLOW_LOAD = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'slow-load');

/**
 * On a starved machine the workers can take longer to load their tools than fastify's
 * plugin timeout (seen in CI): the boot must go on, and the first runs wait for them.
 */
describe('a pool slow to load its tools', () => {
  it('does not fail the boot, and runs once the workers are up', async () => {
    const app = await buildTestApp({ EXTRA_TOOL_DIRS: SLOW_LOAD, POOL_THREADS: '1' });
    try {
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
});
