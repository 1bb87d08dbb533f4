import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PrivateRedis } from '../../test/private-redis.js';
import { EVENTS } from '../shared/events.js';
import { Limits } from './limits.js';
import { LimiterRedis } from './redis-client.js';
import { leasesKey, limitKey } from './store.js';
import { testPolicy } from './test-policy.js';

/**
 * Limits over a private Redis (its command counts are this test's alone): a turn's checks
 * leave as one script call, refused runs take nothing, and a store that stalls is replaced
 * by the in-process insurance for the run (docs/architecture.md, "The limiter").
 */
const priv = new PrivateRedis();
let redis: LimiterRedis;
beforeAll(async () => {
  await priv.start();
  redis = new LimiterRedis(priv.url, 200);
  await new Promise((resolve) => redis.client.once('ready', resolve));
});
afterAll(async () => {
  await redis?.close();
  await priv.stop();
});

/** Script calls Redis has run so far (EVALSHA, and EVAL when a script is not loaded yet). */
async function scriptCalls(): Promise<number> {
  const stats = (await redis.client.info('commandstats')) as string;
  return [...stats.matchAll(/^cmdstat_eval(?:sha)?:calls=(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

describe('limits on Redis', () => {
  it('decides every check of one turn in one call; a refused run takes no lease; charges add up', async () => {
    const limits = new Limits(redis, 'turn:', 0, () => 60_000);
    const policy = testPolicy({ limit: 2, burst: 0, maxInFlightPerClient: 5 });
    await limits.check('warm', 'c', policy, { cached: true, tier: undefined }); // loads the script
    const before = await scriptCalls();
    const checks = await Promise.all(
      Array.from({ length: 4 }, () => limits.check('t', 'turn', policy, { cached: false, tier: undefined })),
    );
    expect(await scriptCalls()).toBe(before + 1);
    expect(checks.map((c) => (c.ok ? 'ok' : c.refusal.code))).toEqual([
      'ok',
      'ok',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    const key = limitKey('turn:', 't', 'turn');
    expect(await redis.client.zcard(leasesKey(key))).toBe(2);
    for (const c of checks) if (c.ok && c.lease) await limits.release(c.lease, 7);
    expect(await redis.client.hget(key, 'u')).toBe('14');
    // ...and reads that budget back: spent at 14 ms, the next run is refused for it.
    const spent = { ...policy, limit: 100, computeBudgetMs: 14 };
    const again = await limits.check('t', 'turn', spent, { cached: false, tier: undefined });
    expect(again.ok ? 'ok' : again.refusal.code).toBe('BUDGET_EXCEEDED');
  });

  it('serves the run in-process when the call fails, and reports the store degraded', async () => {
    const limits = new Limits(redis, 'stall:', 0, () => 60_000);
    const reasons: string[] = [];
    onTestFinished(EVENTS.limiterFallback.subscribe(redis, ({ reason }) => reasons.push(reason)));
    const stall = new LimiterRedis(priv.url, 5000);
    await new Promise((resolve) => stall.client.once('ready', resolve));
    try {
      const sleeping = stall.client.call('DEBUG', 'SLEEP', '1').catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      const check = await limits.check('t', 'c', testPolicy({ limit: 5 }), {
        cached: false,
        tier: undefined,
      });
      expect(check.ok && check.lease?.store).toBe('memory');
      expect(check.rate.remaining).toBe(4);
      expect(reasons.some((r) => r.startsWith('limits:'))).toBe(true);
      expect(redis.degraded).toBe(true);
      await sleeping;
    } finally {
      await stall.close();
    }
  });
});
