import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from '../../test/helpers.js';
import { quotaNumbers } from '../config/quota.js';
import { MemoryStore } from './memory-store.js';
import { LimiterRedis } from './redis-client.js';
import { RedisStore } from './redis-store.js';
import type { LimitStore, StorePolicy } from './store.js';

/**
 * The quota windows roll over at 00:00 UTC and on the first of the month (docs/api.md,
 * "Quotas"), on both stores, with an injected clock: a day's quota spent just before
 * midnight is open again at midnight, a month's stays spent until the first.
 */
const policy = (tool: object, key: object): StorePolicy => ({
  tier: '',
  limit: 1000,
  burst: 0,
  windowMs: 60_000,
  budgetMs: 1_000_000,
  cap: 100,
  leaseMs: 10_000,
  reserveMs: 100,
  quotas: quotaNumbers(tool, key),
});

let redis: LimiterRedis;
const prefix = redisPrefix();
beforeAll(async () => {
  await requireRedis();
  redis = new LimiterRedis(REDIS_URL, 5000);
  await new Promise((resolve) => redis.client.once('ready', resolve));
});
afterAll(async () => {
  const keys = await redis.client.keys(`${prefix}*`);
  if (keys.length > 0) await redis.client.del(...keys);
  await redis?.close();
});

// The last second of a 31-day month well ahead of the real clock (Redis expires by its own).
const year = new Date().getUTCFullYear() + 1;
const LAST = Date.UTC(year, 0, 31, 23, 59, 59, 0);

describe.each(['memory', 'redis'] as const)('quota windows in the %s store', (kind) => {
  let now = LAST;
  let store: LimitStore;
  let n = 0;
  beforeAll(() => {
    store = kind === 'memory' ? new MemoryStore(() => now) : new RedisStore(redis, () => now);
  });
  const admit = async (p: StorePolicy, client: string) => {
    const key = `${prefix}${kind}:lim:{${client}}:t`;
    const r = await store.decide({
      key,
      quotaKey: `${prefix}${kind}:lim:{${client}}:@quota`,
      policy: p,
      points: 1,
      admit: true,
      leaseId: `${n++}`,
    });
    return { state: r[6], entry: r[7], used: r[8], msLeft: r[9] };
  };

  it("opens a day's quota again at 00:00 UTC, and a month's on the first", async () => {
    now = LAST;
    const day = policy({ runsPerDay: 2 }, {});
    const month = policy({}, { runsPerMonth: 3 });
    expect((await admit(day, 'd')).state).toBe(1);
    expect((await admit(day, 'd')).state).toBe(1);
    const refused = await admit(day, 'd');
    expect(refused).toEqual({ state: 2, entry: 0, used: 2, msLeft: 1000 });
    for (let i = 0; i < 3; i++) expect((await admit(month, 'm')).state).toBe(1);
    expect(await admit(month, 'm')).toEqual({ state: 2, entry: 6, used: 3, msLeft: 1000 });

    now = Date.UTC(year, 1, 1); // midnight, and the first of February
    expect(await admit(day, 'd')).toEqual({ state: 1, entry: 0, used: 1, msLeft: 86_400_000 });
    expect((await admit(month, 'm')).state).toBe(1);

    // A day later the day's quota is open again; February's runs go on counting.
    now = Date.UTC(year, 1, 2, 12);
    expect((await admit(month, 'm')).used).toBe(2);
    expect((await admit(month, 'm')).used).toBe(3);
    const spent = await admit(month, 'm');
    expect(spent.state).toBe(2);
    // Until March 1st (28 or 29 days of February).
    expect(spent.msLeft).toBe(Date.UTC(year, 2, 1) - now);
  });
});
