import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivateRedis } from '../../test/private-redis.js';
import { type Check, Limits } from './limits.js';
import { LimiterRedis } from './redis-client.js';
import { leasesKey, limitKey } from './store.js';
import { stallAfterSend } from './test-helpers.js';
import { testPolicy } from './test-policy.js';

/**
 * The insurance through a Redis outage (docs/architecture.md, "The insurance"; the bounds are
 * in docs/operations.md, "Redis and its failure modes"): a real Redis paused with CLIENT PAUSE,
 * so every call waits past the command timeout and is taken by the in-process store. It starts
 * from what this instance last knew of each client, admits only what that left (its share of
 * it with several processes), and what it admitted is charged to Redis when Redis answers.
 */
const RUN = { cached: false, tier: undefined };
const outcome = (c: Check) => (c.ok ? (c.lease?.store ?? 'none') : c.refusal.code);

const priv = new PrivateRedis();
let admin: Redis;
let prefixes = 0;
beforeAll(async () => {
  await priv.start();
  admin = new Redis(priv.url);
});
afterAll(async () => {
  admin?.disconnect();
  await priv.stop();
});

/**
 * An instance of the hub's limits on the private Redis: a second's command timeout (a loaded
 * machine never reaches it by itself), and after a failure Redis is left alone for 3 s, so
 * the first call of a pause fails and the rest of the pause is counted in-process at once.
 */
async function instance(
  prefix: string,
  processes = 1,
): Promise<{ limits: Limits; close: () => Promise<void> }> {
  const redis = new LimiterRedis(priv.url, 1000, 3000);
  await new Promise((resolve) => redis.client.once('ready', resolve));
  return { limits: new Limits(redis, prefix, 0, () => 60_000, processes), close: () => redis.close() };
}

/** `n` runs one after another, each released at once with `ms` of worker time; their outcomes. */
async function runs(
  limits: Limits,
  client: string,
  policy: ReturnType<typeof testPolicy>,
  n: number,
  ms = 1,
) {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await limits.check('t', client, policy, RUN);
    out.push(outcome(c));
    if (c.ok && c.lease) await limits.release(c.lease, ms);
  }
  return out;
}

const count = (outcomes: string[], what: string) => outcomes.filter((o) => o === what).length;

/** Pauses every client of the private Redis for `ms`; resolves once the pause is over and Redis answers. */
async function pause(ms: number, during: () => Promise<void>): Promise<void> {
  const ends = Date.now() + ms;
  await admin.call('CLIENT', 'PAUSE', String(ms), 'ALL');
  await during();
  expect(Date.now(), 'the work meant for the outage ended within it').toBeLessThan(ends);
  await new Promise((r) => setTimeout(r, ends - Date.now() + 50));
  await admin.ping();
}

/** Runs until Redis takes a decision again (the cool-down over), each released at once; the outcomes. */
async function untilRedis(limits: Limits, client: string, policy: ReturnType<typeof testPolicy>) {
  const out: string[] = [];
  for (const until = Date.now() + 30_000; Date.now() < until; ) {
    const c = await limits.check('t', client, policy, RUN);
    if (c.ok && c.lease) await limits.release(c.lease, 1);
    out.push(outcome(c));
    if (c.ok ? c.lease?.store === 'redis' : (await limits.usage('t', client, '')).store === 'redis')
      return out;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Redis never answered again: ${out.join(', ')}`);
}

describe('a quota through a Redis outage', () => {
  it('starts from the runs Redis last counted, and charges Redis with what it admitted', async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix);
    const policy = testPolicy({ quota: { runsPerDay: 10 }, maxInFlightPerClient: 100 });
    try {
      expect(count(await runs(limits, 'c', policy, 7), 'redis')).toBe(7);
      let during: string[] = [];
      await pause(2500, async () => {
        during = await runs(limits, 'c', policy, 15);
      });
      // 3 of the 15: the 7 counted before the outage still count (it used to start at 0: 10).
      expect(count(during, 'memory'), during.join(', ')).toBe(3);
      expect(count(during, 'RATE_LIMITED')).toBe(12);
      // Redis answers: the 3 are charged there, so the day's quota stays spent.
      const after = await untilRedis(limits, 'c', policy);
      expect(after.at(-1)).toBe('RATE_LIMITED');
      const usage = await limits.usage('t', 'c', '');
      expect(usage.store).toBe('redis');
      expect(usage.reply[7], 'runs today in Redis').toBe(10);
    } finally {
      await close();
    }
  });

  it('bounds each replica by what it last knew, and charges what each admitted', async () => {
    const prefix = `ins${prefixes++}:`;
    const [a, b] = await Promise.all([instance(prefix), instance(prefix)]);
    const policy = testPolicy({ quota: { runsPerDay: 10 }, maxInFlightPerClient: 100 });
    try {
      // 7 runs, every other on each replica: a last saw 7 used, b 6.
      for (let i = 0; i < 7; i++) await runs(i % 2 === 0 ? b.limits : a.limits, 'c', policy, 1);
      let during: string[][] = [];
      await pause(2500, async () => {
        during = await Promise.all([runs(a.limits, 'c', policy, 15), runs(b.limits, 'c', policy, 15)]);
      });
      expect(count(during[0]!, 'memory'), 'a: 10 - 6').toBe(4);
      expect(count(during[1]!, 'memory'), 'b: 10 - 7').toBe(3);
      await untilRedis(a.limits, 'c', policy);
      await untilRedis(b.limits, 'c', policy);
      // What both admitted is in Redis now: 7 + 3 + 4, no more admitted.
      expect((await a.limits.usage('t', 'c', '')).reply[7]).toBe(14);
      expect(await runs(a.limits, 'c', policy, 3)).toEqual(['RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('the rate limit and the budget through an outage', () => {
  it('go on from the window and the budget Redis last counted, and Redis is charged after', async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix);
    const policy = testPolicy({ limit: 10, burst: 2, computeBudgetMs: 50, maxInFlightPerClient: 100 });
    try {
      // 8 runs of 5 ms: 8 of the 12 counted, 40 of the 50 ms (charged at each release).
      expect(count(await runs(limits, 'c', policy, 8, 5), 'redis')).toBe(8);
      let during: string[] = [];
      await pause(2500, async () => {
        during = await runs(limits, 'c', policy, 10, 5);
      });
      // The budget was last read at 35 ms (before the eighth run's release): 35 + 5 + 5 + 5 ≥ 50.
      expect(count(during, 'memory'), during.join(', ')).toBe(3);
      expect(during.slice(3).every((o) => o === 'BUDGET_EXCEEDED' || o === 'RATE_LIMITED')).toBe(true);
      await untilRedis(limits, 'c', policy);
      const key = limitKey(prefix, 't', 'c');
      // Every attempt of the outage counted in the rate window (8 + 10 + the ones after).
      expect(Number(await admin.hget(key, 'c'))).toBeGreaterThanOrEqual(18);
      expect(Number(await admin.hget(key, 'u')), 'ms charged in Redis').toBeGreaterThanOrEqual(55);
    } finally {
      await close();
    }
  });
});

describe('N processes of one box while Redis is away', () => {
  it('each admits its share, so the box admits no more than one instance', async () => {
    const prefix = `ins${prefixes++}:`;
    const [a, b] = await Promise.all([instance(prefix, 2), instance(prefix, 2)]);
    const policy = testPolicy({ limit: 10, burst: 0, quota: { runsPerDay: 7 }, maxInFlightPerClient: 100 });
    try {
      let during: string[][] = [];
      await pause(2500, async () => {
        during = await Promise.all([runs(a.limits, 'new', policy, 10), runs(b.limits, 'new', policy, 10)]);
      });
      // A client neither process knew: the day's 7 runs shared, 3 each (7 / 2 rounded down).
      expect(during.map((d) => count(d, 'memory'))).toEqual([3, 3]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("each holds its share of a client's cap, at least one slot", async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix, 2);
    const policy = testPolicy({ maxInFlightPerClient: 5 });
    try {
      let held: Check[] = [];
      await pause(2500, async () => {
        held = await Promise.all(Array.from({ length: 5 }, () => limits.check('t', 'c', policy, RUN)));
      });
      expect(held.map(outcome).sort()).toEqual([
        'CONCURRENCY_LIMIT',
        'CONCURRENCY_LIMIT',
        'CONCURRENCY_LIMIT',
        'memory',
        'memory',
      ]);
      for (const c of held) if (c.ok && c.lease) await limits.release(c.lease, 0);
    } finally {
      await close();
    }
  });
});

describe('runs in flight when Redis answers again', () => {
  it('hold their slots there until they end', async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix);
    const policy = testPolicy({ maxInFlightPerClient: 1 });
    const key = limitKey(prefix, 't', 'c');
    try {
      let held: Check | undefined;
      await pause(2500, async () => {
        held = await limits.check('t', 'c', policy, RUN);
      });
      expect(outcome(held!)).toBe('memory');
      // Redis answers (another client's run ends the outage): the run admitted in-process is
      // still running, and its slot moves to Redis with it.
      await untilRedis(limits, 'other', policy);
      await expect.poll(() => admin.zcard(leasesKey(key)), { timeout: 5000 }).toBe(1);
      expect(outcome(await limits.check('t', 'c', policy, RUN))).toBe('CONCURRENCY_LIMIT');
      // It ends: its release goes to Redis, which frees the slot and charges its time there.
      if (held?.ok && held.lease) await limits.release(held.lease, 9);
      expect(await admin.zcard(leasesKey(key))).toBe(0);
      expect(await admin.hget(key, 'u')).toBe('9');
      expect(await runs(limits, 'c', policy, 1)).toEqual(['redis']);
    } finally {
      await close();
    }
  });
});

describe('a quota of worker ms', () => {
  it('reserves each run’s timeout while it runs, so concurrent runs pass it by one run at most', async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix);
    // 300 ms a day; a run may take up to its 200 ms timeout.
    const policy = testPolicy({ quota: { computeMsPerDay: 300 }, timeoutMs: 200, maxInFlightPerClient: 8 });
    try {
      const first = await Promise.all(Array.from({ length: 8 }, () => limits.check('t', 'c', policy, RUN)));
      // Each run in flight reserves 200: two fill the 300 (0 used + 200 reserved left room for one more).
      expect(first.map(outcome).sort()).toEqual([...Array(6).fill('CONCURRENCY_LIMIT'), 'redis', 'redis']);
      const full = first.find((c) => !c.ok);
      expect(full?.ok === false && full.refusal.scope).toBe('quota');
      expect(full?.ok === false && full.refusal.quota).toMatchObject({
        kind: 'computeMs',
        used: 0,
        reservedMs: 400,
      });
      // Waves of concurrent runs, each charging what it took (up to its timeout): the day ends
      // past 300 ms by less than one run.
      let used = 0;
      for (let wave = 0; wave < 10; wave++) {
        const checks = await Promise.all(
          Array.from({ length: 8 }, () => limits.check('t', 'c', policy, RUN)),
        );
        for (const c of [...checks, ...first.splice(0)])
          if (c.ok && c.lease) {
            const ms = 150 + wave * 5;
            used += ms;
            await limits.release(c.lease, ms);
          }
      }
      const charged = (await limits.usage('t', 'c', '')).reply[8];
      expect(charged).toBe(used);
      expect(charged).toBeGreaterThanOrEqual(300);
      expect(charged).toBeLessThan(300 + 200);
      expect(outcome(await limits.check('t', 'c', policy, RUN))).toBe('BUDGET_EXCEEDED');
    } finally {
      await close();
    }
  });
});

describe('a decision whose answer comes after the hub gave up on it', () => {
  it('counts once: what Redis took of it is not charged again', async () => {
    const prefix = `ins${prefixes++}:`;
    const { limits, close } = await instance(prefix);
    const policy = testPolicy({ quota: { runsPerDay: 10 }, maxInFlightPerClient: 5 });
    try {
      // The call reaches Redis in its time and counts there, but this thread stalls past the
      // command timeout before it reads the answer: the run is counted in-process too.
      const checked = limits.check('t', 'c', policy, RUN);
      await stallAfterSend(1500);
      const late = await checked;
      expect(outcome(late)).toBe('memory');
      if (late.ok && late.lease) await limits.release(late.lease, 0);
      // Redis serves again (the cool-down over): the next run is decided there, after the
      // outage's one run is settled.
      await expect
        .poll(async () => (await limits.usage('t', 'c', '')).store, { timeout: 20_000 })
        .toBe('redis');
      expect(await runs(limits, 'c', policy, 1)).toEqual(['redis']);
      const usage = await limits.usage('t', 'c', '');
      expect(usage.reply[7], 'runs today').toBe(2);
      expect(Number(await admin.hget(limitKey(prefix, 't', 'c'), 'c')), 'rate counted').toBe(2);
    } finally {
      await close();
    }
  });
});

describe('a full Redis (maxmemory, noeviction)', () => {
  const full = new PrivateRedis(['--maxmemory', '4mb', '--maxmemory-policy', 'noeviction']);
  afterAll(() => full.stop());

  it('refuses the limiter’s writes: counted in-process from what was known, charged once it has room', async () => {
    await full.start();
    const junk = new Redis(full.url);
    const redis = new LimiterRedis(full.url, 1000, 3000);
    await new Promise((resolve) => redis.client.once('ready', resolve));
    const limits = new Limits(redis, 'full:', 0, () => 60_000);
    const policy = testPolicy({ quota: { runsPerDay: 10 }, maxInFlightPerClient: 100 });
    try {
      expect(count(await runs(limits, 'c', policy, 6), 'redis')).toBe(6);
      // Fill it, big values then small ones, until even a small write is refused (OOM): the
      // limiter's writes are refused from here on, its reads still answered.
      let filled = 0;
      for (const size of [256 * 1024, 4096, 64]) {
        const value = 'x'.repeat(size);
        for (;;) {
          const stored = await junk.set(`junk:${filled}`, value).then(
            () => true,
            () => false,
          );
          if (!stored) break;
          filled++;
        }
      }
      const during = await runs(limits, 'c', policy, 10);
      expect(count(during, 'memory'), during.join(', ')).toBe(4);
      // Room again: Redis takes what was counted meanwhile, and the day's 10 are spent there.
      for (let i = 0; i < filled; i++) await junk.del(`junk:${i}`);
      await expect
        .poll(async () => (await limits.usage('t', 'c', '')).store, { timeout: 20_000 })
        .toBe('redis');
      expect(await runs(limits, 'c', policy, 1)).toEqual(['RATE_LIMITED']);
      expect((await limits.usage('t', 'c', '')).reply[7]).toBe(10);
    } finally {
      junk.disconnect();
      await redis.close();
    }
  });
});
