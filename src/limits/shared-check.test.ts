import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from '../../test/helpers.js';
import { PrivateRedis } from '../../test/private-redis.js';
import { EVENTS } from '../shared/events.js';
import { budgetKey, rateKeyPrefix, slotKey } from './keys.js';
import { Limits } from './limits.js';
import type { RateDecision } from './rate-limit.js';
import { LimiterRedis } from './redis-client.js';
import { testPolicy } from './test-policy.js';

/**
 * With Redis, Limits.check counts the rate limit inside the turn's batched script
 * (src/limits/scripts.ts, CHECK_LUA) instead of through rate-limiter-flexible. Here the
 * library is the second, independent implementation: on the same keys both must count
 * alike, so replicas of two releases share their windows during a rolling upgrade.
 */
const POLICY = testPolicy({ limit: 3, burst: 2 });
const CACHED = { cached: true, tier: '' };

const prefix = redisPrefix();
let redis: LimiterRedis;
let limits: Limits;

beforeAll(async () => {
  await requireRedis();
  redis = new LimiterRedis(REDIS_URL, 2000);
  await new Promise((resolve) => redis.client.once('ready', resolve));
  limits = new Limits(redis, prefix, 0);
});
afterAll(async () => redis?.close());

/** What a client sees of a decision; resetMs moves with the clock, so only its range is kept. */
function seen(d: RateDecision) {
  expect(d.resetMs).toBeGreaterThan(0);
  expect(d.resetMs).toBeLessThanOrEqual(60_000);
  return { allowed: d.allowed, remaining: d.remaining };
}

const library = async (client: string) => seen(await limits.rate.consume('t', client, POLICY));
const batched = async (client: string) => seen((await limits.check('t', client, POLICY, CACHED)).rate);

describe('the batched rate-limit check', () => {
  it('counts as rate-limiter-flexible does: limit, then burst, then refusals', async () => {
    const byLibrary = [];
    const byBatch = [];
    for (let i = 0; i < 7; i++) byLibrary.push(await library('lib-only'));
    for (let i = 0; i < 7; i++) byBatch.push(await batched('batch-only'));
    expect(byLibrary.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(byLibrary.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(byBatch).toEqual(byLibrary);
    // The script built the library's key names: both burst counters went past the limit alike.
    const burst = (client: string) => redis.client.get(`${rateKeyPrefix(prefix, 't').burst}:${client}`);
    expect(await burst('batch-only')).toBe('4');
    expect(await burst('batch-only')).toBe(await burst('lib-only'));
  });

  it('shares the library keys: the two implementations taking turns on one client count once', async () => {
    const mixed = [];
    for (let i = 0; i < 7; i++) mixed.push(await (i % 2 ? library('mixed') : batched('mixed')));
    expect(mixed.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(mixed.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
  });

  it('counts every check of one turn in one call, and a refused run takes no slot', async () => {
    const policy = { ...POLICY, limit: 2, burst: 0, maxInFlightPerClient: 5 };
    const checks = await Promise.all(
      Array.from({ length: 4 }, () => limits.check('t2', 'turn', policy, { cached: false, tier: '' })),
    );
    expect(checks.map((c) => (c.ok ? 'ok' : c.refusal.code))).toEqual([
      'ok',
      'ok',
      'RATE_LIMITED',
      'RATE_LIMITED',
    ]);
    // The script built the same lease and budget keys as src/limits/keys.ts.
    expect(await redis.client.zcard(slotKey(prefix, 't2', 'turn'))).toBe(2);
    for (const c of checks) if (c.ok && c.lease) await limits.release(c.lease, 7);
    expect(await redis.client.exists(slotKey(prefix, 't2', 'turn'))).toBe(0);
    expect(await redis.client.get(budgetKey(prefix, 't2', 'turn'))).toBe('14');
    // ...and reads that budget back: spent at 14 ms, the next run is refused for it.
    const spent = { ...policy, limit: 100, computeBudgetMs: 14 };
    const again = await limits.check('t2', 'turn', spent, { cached: false, tier: '' });
    expect(again.ok ? 'ok' : again.refusal.code).toBe('BUDGET_EXCEEDED');
  });
});

describe('when the batched call fails', () => {
  const priv = new PrivateRedis();
  afterAll(() => priv.stop());

  it('serves the run in-process and reports the store degraded', async () => {
    await priv.start();
    const slow = new LimiterRedis(priv.url, 200);
    const reasons: string[] = [];
    onTestFinished(EVENTS.limiterFallback.subscribe(slow, ({ reason }) => reasons.push(reason)));
    await new Promise((resolve) => slow.client.once('ready', resolve));
    const own = new Limits(slow, 'toolhub-test:', 0);
    try {
      const stall = new LimiterRedis(priv.url, 5000);
      await new Promise((resolve) => stall.client.once('ready', resolve));
      const sleeping = stall.client.call('DEBUG', 'SLEEP', '1').catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      const check = await own.check('t', 'c', POLICY, { cached: false, tier: '' });
      expect(check.ok).toBe(true);
      expect(check.ok && check.lease?.admission.store).toBe('memory');
      expect(check.rate.remaining).toBe(4);
      expect(reasons.some((r) => r.startsWith('limits:'))).toBe(true);
      expect(slow.degraded).toBe(true);
      await sleeping;
      await stall.close();
    } finally {
      await slow.close();
    }
  });
});
