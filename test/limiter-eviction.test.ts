/**
 * Limit state is never evicted (docs/operations.md, "Result cache" and "Redis and its failure
 * modes"): real hub processes on private `redis-server`s with a small `maxmemory`, a cached tool
 * whose answers are big, and a client that spends its whole limit. On a limiter Redis that
 * evicts the shortest TTLs first (`volatile-ttl`), results stored there pushed the client's
 * limit key out and the client was admitted past its limit; the hub now flags such a Redis
 * and keeps the results off it, or stores them in a Redis of their own.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { PATIENT, policyFile, redisPrefix } from './helpers.js';
import { redisCli, waitFor } from './private-cluster.js';
import { PrivateRedis } from './private-redis.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/** Runs the client may have in the test's window (an hour: the test never outlasts it). */
const LIMIT = 12;
/** Results stored for a day: longer than the limit keys' TTL (the window), so `volatile-ttl` takes the limit keys first. */
const POLICY = {
  tools: {
    'html-markdown': { cacheTtlSec: 86_400, limit: LIMIT, burst: 0, windowSec: 3600, timeoutMs: 30_000 },
  },
};
/** A Redis of 3 MB: the client's LIMIT answers of ~250 kB fill it. */
const SMALL = ['--maxmemory', '3mb', '--maxmemory-samples', '10'];

/** Twice the limit sent: the first LIMIT admitted, every one after refused. */
const EXACTLY_THE_LIMIT = [...Array(LIMIT).fill(200), ...Array(LIMIT).fill(429)];

/** A Markdown input no other run sent, whose HTML is ~250 kB. */
const bigInput = (i: number) => `run ${i} ${Math.random()}\n\n${'word '.repeat(50_000)}`;

/** Sends `n` fresh runs one after another; their statuses and Cache-Status values. */
async function spend(base: string, from: number, n: number): Promise<{ status: number; cache: string }[]> {
  const out: { status: number; cache: string }[] = [];
  for (let i = from; i < from + n; i++) {
    const res = await fetch(`${base}/api/html-markdown/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: bigInput(i), mode: 'markdown-to-html' }),
    });
    await res.arrayBuffer();
    out.push({ status: res.status, cache: res.headers.get('cache-status') ?? '' });
  }
  return out;
}

const stat = async (port: number, field: string) =>
  Number(new RegExp(`^${field}:(\\d+)`, 'm').exec(await redisCli(port, 'info', 'stats'))?.[1] ?? NaN);

const readyz = async (base: string) =>
  (await (await fetch(`${base}/readyz`)).json()) as {
    limiterRedis?: { maxmemoryPolicy: string; evictable: boolean };
    resultCache?: string;
  };

describe('a limiter Redis that can evict', () => {
  const limiter = new PrivateRedis([...SMALL, '--maxmemory-policy', 'volatile-ttl']);
  let hub: Instance | undefined;
  afterAll(async () => {
    await stopInstance(hub);
    await limiter.stop();
  });

  it('is flagged, and the results stay off it: the limit holds', async () => {
    await limiter.start();
    const env = {
      REDIS_URL: limiter.url,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: await policyFile(POLICY),
    };
    hub = await startInstance(env);
    const first = await spend(hub.base, 0, LIMIT);
    const more = await spend(hub.base, LIMIT, LIMIT);
    expect([...first, ...more].map((r) => r.status)).toEqual(EXACTLY_THE_LIMIT);
    // Stored, but only in this instance's memory: the shared layer is off on such a Redis.
    expect(first.map((r) => r.cache)).toEqual(Array(LIMIT).fill('toolhub; fwd=miss; stored; detail=memory'));
    expect(await stat(limiter.port, 'evicted_keys')).toBe(0);

    expect(await readyz(hub.base)).toMatchObject({
      limiterRedis: { maxmemoryPolicy: 'volatile-ttl', evictable: true },
      resultCache: 'in-process',
    });
    const metrics = await (await fetch(`${hub.base}/metrics`)).text();
    expect(metrics).toMatch(/^toolhub_limiter_redis_evictable 1$/m);
    // The warning names the policy and the fix; the cache's line says what to set.
    const log = hub.stdout();
    expect(log).toMatch(/maxmemory-policy volatile-ttl.*noeviction/);
    expect(log).toMatch(/result cache.*CACHE_REDIS_URL/);
  }, 120_000);
});

describe('the result cache on a Redis of its own', () => {
  const limiter = new PrivateRedis(['--maxmemory-policy', 'noeviction']);
  const cache = new PrivateRedis([...SMALL, '--maxmemory-policy', 'allkeys-lru']);
  let hub: Instance | undefined;
  afterAll(async () => {
    await stopInstance(hub);
    await Promise.all([limiter.stop(), cache.stop()]);
  });

  it('shares results through it, evicts there, and the limit holds', async () => {
    await Promise.all([limiter.start(), cache.start()]);
    const env = {
      REDIS_URL: limiter.url,
      CACHE_REDIS_URL: cache.url,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: await policyFile(POLICY),
    };
    hub = await startInstance(env);
    expect((await readyz(hub.base)).resultCache).toBe('shared');
    const first = await spend(hub.base, 0, LIMIT);
    const more = await spend(hub.base, LIMIT, LIMIT);
    expect([...first, ...more].map((r) => r.status)).toEqual(EXACTLY_THE_LIMIT);
    expect(first.map((r) => r.cache)).toEqual(Array(LIMIT).fill('toolhub; fwd=miss; stored; detail=shared'));
    // The pressure was real, and it fell on the cache's Redis alone.
    expect(await stat(cache.port, 'evicted_keys')).toBeGreaterThan(0);
    expect(await stat(limiter.port, 'evicted_keys')).toBe(0);
    expect(await redisCli(limiter.port, '--scan', '--pattern', '*cache:*')).toBe('');
    expect(await readyz(hub.base)).toMatchObject({
      limiterRedis: { maxmemoryPolicy: 'noeviction', evictable: false },
    });
  }, 120_000);
});

describe('a failover onto a node that can evict', () => {
  const limiter = new PrivateRedis(['--maxmemory-policy', 'noeviction']);
  let hub: Instance | undefined;
  afterAll(async () => {
    await stopInstance(hub);
    await limiter.stop();
  });

  it('is read on the reconnect: flagged, the shared layer off, and back on when the policy is', async () => {
    await limiter.start();
    const env = {
      REDIS_URL: limiter.url,
      REDIS_PREFIX: redisPrefix(),
      ...PATIENT,
      POLICY_FILE: await policyFile(POLICY),
    };
    hub = await startInstance(env);
    expect(await readyz(hub.base)).toMatchObject({
      limiterRedis: { maxmemoryPolicy: 'noeviction', evictable: false },
      resultCache: 'shared',
    });
    expect((await spend(hub.base, 0, 1))[0]!.cache).toBe('toolhub; fwd=miss; stored; detail=shared');
    // The node the hub reconnects to has another policy (what a failover can land on).
    const reconnect = async (policy: string) => {
      await redisCli(limiter.port, 'config', 'set', 'maxmemory-policy', policy);
      await redisCli(limiter.port, 'client', 'kill', 'type', 'normal');
    };
    await reconnect('allkeys-lru');
    await waitFor(
      'the new policy on /readyz',
      async () => (await readyz(hub!.base)).limiterRedis?.evictable === true,
    );
    expect(await readyz(hub.base)).toMatchObject({
      limiterRedis: { maxmemoryPolicy: 'allkeys-lru' },
      resultCache: 'in-process',
    });
    expect(await (await fetch(`${hub.base}/metrics`)).text()).toMatch(/^toolhub_limiter_redis_evictable 1$/m);
    expect((await spend(hub.base, 1, 1))[0]!.cache).toBe('toolhub; fwd=miss; stored; detail=memory');
    expect(hub.stdout()).toMatch(/maxmemory-policy allkeys-lru.*noeviction/);

    await reconnect('noeviction');
    await waitFor(
      'the safe policy on /readyz',
      async () => (await readyz(hub!.base)).resultCache === 'shared',
    );
    expect(await (await fetch(`${hub.base}/metrics`)).text()).toMatch(/^toolhub_limiter_redis_evictable 0$/m);
    expect((await spend(hub.base, 2, 1))[0]!.cache).toBe('toolhub; fwd=miss; stored; detail=shared');
  }, 120_000);
});
