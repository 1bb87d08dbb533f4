import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  getRun,
  PATIENT,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
} from '../../test/helpers.js';
import { waitFor } from '../../test/private-cluster.js';
import { PrivateRedis } from '../../test/private-redis.js';

/**
 * Where the result cache keeps its shared layer (docs/operations.md, "Result cache"): a Redis
 * of its own on a connection and a breaker of its own, never a limiter Redis that can evict
 * (CACHE_REDIS_URL naming that very Redis included), nothing with CACHE_SHARED false.
 */
const POLICY = { tools: { 'fx-echo': { cacheTtlSec: 60 } } };
const evicting = new PrivateRedis(['--maxmemory-policy', 'allkeys-lru']);
const own = new PrivateRedis(['--maxmemory-policy', 'allkeys-lru']);

beforeAll(async () => {
  await requireRedis();
  await Promise.all([evicting.start(), own.start()]);
});
afterAll(async () => {
  await Promise.all([evicting.stop(), own.stop()]);
});

async function readyz(app: Awaited<ReturnType<typeof buildTestApp>>) {
  return (await app.inject({ url: '/readyz' })).json() as {
    limiterStore: string;
    limiterRedis?: { maxmemoryPolicy: string | null; evictable: boolean | null };
    resultCache: string;
  };
}

describe('the shared layer', () => {
  it('is off with CACHE_SHARED false, whatever Redis there is', async () => {
    const app = await buildTestApp({
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      CACHE_SHARED: 'false',
      POLICY_FILE: await policyFile(POLICY),
    });
    try {
      expect(await readyz(app)).toMatchObject({
        limiterRedis: { maxmemoryPolicy: 'noeviction', evictable: false },
        resultCache: 'in-process',
      });
      expect((await getRun(app, 'fx-echo', 'off')).headers['cache-status']).toBe(
        'toolhub; fwd=miss; stored; detail=memory',
      );
    } finally {
      await app.close();
    }
  });

  it('stays off a limiter Redis that can evict even when CACHE_REDIS_URL names that Redis', async () => {
    const app = await buildTestApp({
      REDIS_URL: evicting.url,
      CACHE_REDIS_URL: evicting.url,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: await policyFile(POLICY),
    });
    try {
      expect(await readyz(app)).toMatchObject({
        limiterRedis: { maxmemoryPolicy: 'allkeys-lru', evictable: true },
        resultCache: 'in-process',
      });
      expect((await getRun(app, 'fx-echo', 'same')).headers['cache-status']).toBe(
        'toolhub; fwd=miss; stored; detail=memory',
      );
    } finally {
      await app.close();
    }
  });

  it('has a breaker of its own: its Redis away never sends the limiter in-process', async () => {
    const app = await buildTestApp({
      REDIS_URL,
      CACHE_REDIS_URL: own.url,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: await policyFile(POLICY),
    });
    try {
      expect((await readyz(app)).resultCache).toBe('shared');
      expect((await getRun(app, 'fx-echo', 'before')).headers['cache-status']).toBe(
        'toolhub; fwd=miss; stored; detail=shared',
      );
      await own.stop();
      for (let i = 0; i < 5; i++) {
        const res = await getRun(app, 'fx-echo', `while away ${i}`);
        expect(res.statusCode).toBe(200);
        // Stored here only, and said so (a write the shared layer failed leaves it in memory).
        expect(res.headers['cache-status']).toBe('toolhub; fwd=miss; stored; detail=memory');
      }
      await waitFor(
        'the cache to see its Redis away',
        async () => (await readyz(app)).resultCache === 'degraded',
      );
      const ready = await readyz(app);
      expect(ready.limiterStore).toBe('redis');
      const metrics = (await app.inject({ url: '/metrics' })).body;
      expect(metrics).toMatch(/^toolhub_limiter_store_degraded 0$/m);
      expect(metrics).not.toMatch(/^toolhub_limiter_fallbacks_total\{[^}]*\} [1-9]/m);
    } finally {
      await app.close();
    }
  });
});
