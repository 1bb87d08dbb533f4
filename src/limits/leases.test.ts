import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from '../../test/helpers.js';
import { PrivateRedis } from '../../test/private-redis.js';
import { type Check, Limits } from './limits.js';
import { LimiterRedis } from './redis-client.js';
import { leasesKey, limitKey } from './store.js';
import { stallAfterSend } from './test-helpers.js';
import { testPolicy } from './test-policy.js';

/**
 * A client's concurrency slots in Redis are leases (docs/architecture.md, "Leases"): each
 * admitted run holds its own entry with its own deadline, pruned by time and never renewed
 * by another attempt, so a release that never arrives frees the slot at the run's deadline,
 * and a release that failed during an outage is given back once Redis answers again.
 */
const POLICY = testPolicy();
const RUN = { cached: false, tier: undefined };
const outcome = (c: Check) => (c.ok ? (c.lease?.store ?? 'none') : c.refusal.code);
/** The leases beside a client's key: [id, deadline] pairs. */
const leasesIn = async (client: LimiterRedis, key: string) => {
  const scored = await client.client.zrange(leasesKey(key), '0', '-1', 'WITHSCORES');
  return Array.from({ length: scored.length / 2 }, (_, i) => [scored[2 * i]!, scored[2 * i + 1]!]);
};

let redis: LimiterRedis;
beforeAll(async () => {
  await requireRedis();
  redis = new LimiterRedis(REDIS_URL, 2000);
  await new Promise((resolve) => redis.client.once('ready', resolve));
});
afterAll(async () => redis?.close());

describe('leases on a client’s slots', () => {
  it('a lease never released frees its slot at its deadline', async () => {
    const prefix = redisPrefix();
    const limits = new Limits(redis, prefix, 0, () => 500);
    const held = await limits.check('t', 'gone', POLICY, RUN);
    expect(outcome(held)).toBe('redis');
    // The instance that held it "died": no release. At the cap until the deadline...
    expect(outcome(await limits.check('t', 'gone', POLICY, RUN))).toBe('CONCURRENCY_LIMIT');
    // ...then admitted again without anyone's help.
    await expect
      .poll(
        async () => {
          const c = await limits.check('t', 'gone', POLICY, RUN);
          if (c.ok && c.lease) await limits.release(c.lease, 0);
          return outcome(c);
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe('redis');
  });

  it('refused attempts never renew a lease (the old counter’s TTL was renewed by every attempt)', async () => {
    const prefix = redisPrefix();
    const limits = new Limits(redis, prefix, 0, () => 800);
    expect(outcome(await limits.check('t', 'busy', POLICY, RUN))).toBe('redis');
    const key = limitKey(prefix, 't', 'busy');
    const [[, deadline]] = (await leasesIn(redis, key)) as [[string, string]];
    // Continued traffic from the same client: every attempt is refused and changes nothing.
    let last = '';
    for (let i = 0; i < 200 && last !== 'redis'; i++) {
      const c = await limits.check('t', 'busy', POLICY, RUN);
      last = outcome(c);
      if (last === 'CONCURRENCY_LIMIT') {
        expect(await leasesIn(redis, key)).toEqual([[expect.any(String), deadline]]);
      }
      if (c.ok && c.lease) await limits.release(c.lease, 0);
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(last, 'the lost lease expired under continued traffic').toBe('redis');
  });

  it('leases are counted per run: the cap admits exactly that many, and releases free them one by one', async () => {
    const prefix = redisPrefix();
    const limits = new Limits(redis, prefix, 0, () => 60_000);
    const policy = { ...POLICY, maxInFlightPerClient: 3 };
    const checks = await Promise.all(Array.from({ length: 5 }, () => limits.check('t', 'many', policy, RUN)));
    expect(checks.map(outcome).sort()).toEqual([
      'CONCURRENCY_LIMIT',
      'CONCURRENCY_LIMIT',
      'redis',
      'redis',
      'redis',
    ]);
    expect(limits.leases().held.get('t')).toBe(3);
    const key = limitKey(prefix, 't', 'many');
    expect(await leasesIn(redis, key)).toHaveLength(3);
    const leases = checks.flatMap((c) => (c.ok && c.lease ? [c.lease] : []));
    await limits.release(leases[0]!, 0);
    // A second release of the same lease changes nothing (a retried release is safe).
    await limits.release(leases[0]!, 0);
    expect(await leasesIn(redis, key)).toHaveLength(2);
    for (const lease of leases.slice(1)) await limits.release(lease, 0);
    expect(await leasesIn(redis, key)).toEqual([]);
    expect(limits.leases().held.get('t') ?? 0).toBeLessThanOrEqual(0);
  });
});

describe('a release that fails during an outage', () => {
  const priv = new PrivateRedis();
  afterAll(() => priv.stop());

  it('is given back when Redis answers again', async () => {
    await priv.start();
    const own = new LimiterRedis(priv.url, 200, 300);
    await new Promise((resolve) => own.client.once('ready', resolve));
    const stall = new LimiterRedis(priv.url, 10_000);
    await new Promise((resolve) => stall.client.once('ready', resolve));
    const limits = new Limits(own, 'toolhub-test:', 0, () => 600_000);
    const key = limitKey('toolhub-test:', 't', 'outage');
    try {
      const held = await limits.check('t', 'outage', POLICY, RUN);
      expect(outcome(held)).toBe('redis');
      const sleeping = stall.client.call('DEBUG', 'SLEEP', '1').catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      if (held.ok && held.lease) await limits.release(held.lease, 5);
      expect(limits.leases().unreleased).toBe(1);
      await sleeping;
      // Redis is back: the next admission through it gives the lease back, long before
      // its ten-minute deadline.
      await expect
        .poll(
          async () => {
            const c = await limits.check('t', 'other', POLICY, RUN);
            if (c.ok && c.lease) await limits.release(c.lease, 0);
            return limits.leases().unreleased === 0 && (await leasesIn(stall, key)).length === 0;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(true);
      expect(outcome(await limits.check('t', 'outage', POLICY, RUN))).toBe('redis');
    } finally {
      await own.close();
      await stall.close();
    }
  });
});

describe('a decision the hub stopped waiting for', () => {
  const priv = new PrivateRedis();
  afterAll(() => priv.stop());

  it('does nothing when Redis takes it too late', async () => {
    await priv.start();
    const own = new LimiterRedis(priv.url, 200, 300);
    await new Promise((resolve) => own.client.once('ready', resolve));
    const stall = new LimiterRedis(priv.url, 10_000);
    await new Promise((resolve) => stall.client.once('ready', resolve));
    const limits = new Limits(own, 'toolhub-test:', 0, () => 600_000);
    const policy = { ...POLICY, maxInFlightPerClient: 1 };
    const key = limitKey('toolhub-test:', 't', 'late');
    try {
      // Redis stalls past the command timeout: the decision falls back in-process (its run is
      // admitted and answered there) while Redis holds the call and takes it after the stall,
      // past its time: it must not take a lease that no release would name, nor count.
      const sleeping = stall.client.call('DEBUG', 'SLEEP', '1').catch(() => null);
      await new Promise((r) => setTimeout(r, 50));
      const late = await limits.check('t', 'late', policy, RUN);
      expect(outcome(late)).toBe('memory');
      if (late.ok && late.lease) await limits.release(late.lease, 0);
      await sleeping;
      expect(await leasesIn(stall, key)).toEqual([]);
      expect(await stall.client.hgetall(key)).toEqual({});
    } finally {
      await own.close();
      await stall.close();
    }
  });

  it('has the lease it took given back when the answer came too late for the hub', async () => {
    // A second for the call to run in Redis in its time (three quarters of the timeout).
    const own = new LimiterRedis(REDIS_URL, 1000, 300);
    await new Promise((resolve) => own.client.once('ready', resolve));
    const prefix = redisPrefix();
    const limits = new Limits(own, prefix, 0, () => 600_000);
    const policy = { ...POLICY, maxInFlightPerClient: 1 };
    const key = limitKey(prefix, 't', 'stalled');
    try {
      // The call reaches Redis in time and takes its lease, but this thread stalls past the
      // command timeout before it reads the answer: the hub counts in-process, and the lease in
      // Redis would hold the client's one slot until its ten-minute deadline.
      // (The check sends at the end of this turn; ioredis writes in the next one, before this.)
      const checked = limits.check('t', 'stalled', policy, RUN);
      await stallAfterSend(1500);
      const late = await checked;
      expect(outcome(late)).toBe('memory');
      if (late.ok && late.lease) await limits.release(late.lease, 0);
      expect(await leasesIn(redis, key)).toHaveLength(1);
      // Redis answers again: the slot is the client's at once.
      await expect
        .poll(
          async () => {
            const c = await limits.check('t', 'stalled', policy, RUN);
            if (c.ok && c.lease) await limits.release(c.lease, 0);
            return outcome(c);
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe('redis');
      expect(await leasesIn(redis, key)).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('a lease’s short life, renewed while its run goes on', () => {
  it('holds the slot for a run longer than its life, and frees it soon after its instance stops renewing', async () => {
    const prefix = redisPrefix();
    // A run may live a minute; its lease lives 2 s from its last renewal (renewed every 0.5 s:
    // a stall of this thread shorter than 1.5 s loses nothing).
    const limits = new Limits(redis, prefix, 0, () => 60_000, 1, 2000);
    const policy = { ...POLICY, maxInFlightPerClient: 1 };
    const key = limitKey(prefix, 't', 'long');
    const held = await limits.check('t', 'long', policy, RUN);
    expect(outcome(held)).toBe('redis');
    // Five seconds of running, past two lives: the lease still holds the client's one slot.
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 500));
      expect(outcome(await limits.check('t', 'long', policy, RUN))).toBe('CONCURRENCY_LIMIT');
      const [[, deadline]] = (await leasesIn(redis, key)) as [[string, string]];
      expect(Number(deadline)).toBeGreaterThan(Date.now());
    }
    // The instance dies mid-run (it renews no more, and never gives the lease back): another
    // instance finds the slot free within about a life, not the run's minute.
    limits.close();
    const other = new Limits(redis, prefix, 0, () => 60_000, 1, 2000);
    await expect
      .poll(
        async () => {
          const c = await other.check('t', 'long', policy, RUN);
          if (c.ok && c.lease) await other.release(c.lease, 0);
          return outcome(c);
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe('redis');
    other.close();
  });
});
