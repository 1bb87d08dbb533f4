import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from '../../test/helpers.js';
import { PrivateRedis } from '../../test/private-redis.js';
import { LimiterRedis } from '../limits/redis-client.js';
import { type CacheHit, ResultCache, type ResultCacheOptions } from './result-cache.js';

/**
 * The result cache's shared layer against a real Redis: entries written by one instance are read
 * by another, the in-process layer answers repeats, bounds and expiry hold, and a Redis
 * that goes away makes lookups misses, never errors.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it gives something other than undefined, or fails after `ms`. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

async function usable(redis: LimiterRedis, ms = 15_000): Promise<void> {
  await eventually('Redis to be usable', async () => (redis.usable() ? true : undefined), ms);
}

/** Every content key the tests use, deleted from the shared Redis at the end. */
const used = new Set<string>();
const uniqueKey = () => {
  const key = randomUUID();
  used.add(key);
  return key;
};

let redis: LimiterRedis;
const prefix = redisPrefix();

beforeAll(async () => {
  await requireRedis();
  redis = new LimiterRedis(REDIS_URL, 200);
  await usable(redis);
});

afterAll(async () => {
  if (!redis) return;
  if (redis.usable() && used.size > 0) await redis.client.del(...[...used].map((k) => `${prefix}cache:${k}`));
  await redis.close();
});

const cache = (over: Partial<ResultCacheOptions> = {}) =>
  new ResultCache({ redis, prefix, maxEntryBytes: 100_000, memoryBytes: 0, ...over });

describe('ResultCache with Redis', () => {
  it('shares entries between instances through Redis', async () => {
    const a = cache();
    const b = cache();
    const key = uniqueKey();
    const json = JSON.stringify({ ok: true, result: { n: 1, text: 'ünïcödé ✓' } });
    expect(await b.get(key)).toBeUndefined();
    const before = Date.now();
    expect(await a.set(key, json, 60)).toEqual({ stored: true, layer: 'shared' });
    const hit = await eventually('the entry on the other instance', () => b.get(key));
    expect(hit).toMatchObject({ json, layer: 'shared' });
    expect(hit.ttlSec).toBeGreaterThan(0);
    expect(hit.ttlSec).toBeLessThanOrEqual(60);
    // Without a memory layer, every lookup goes to Redis.
    expect((await b.get(key))?.layer).toBe('shared');
    expect((await a.get(key))?.layer).toBe('shared');
    expect(b.memoryStats).toEqual({ entries: 0, bytes: 0 });
    // The value is `<expiresAtMs>,<storedAtMs>\n<json>` under the prefix, with a Redis expiry.
    const raw = await redis.client.get(`${prefix}cache:${key}`);
    const cut = raw!.indexOf('\n');
    expect(raw!.slice(cut + 1)).toBe(json);
    const [expiresAt, storedAt] = raw!.slice(0, cut).split(',').map(Number);
    expect(storedAt).toBeGreaterThanOrEqual(before);
    expect(storedAt).toBeLessThanOrEqual(Date.now());
    expect(expiresAt! - storedAt!).toBe(60_000);
    expect(hit).toMatchObject({ storedAt, expiresAt });
    const pttl = await redis.client.pttl(`${prefix}cache:${key}`);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(60_000);
    // Another key misses.
    expect(await b.get(uniqueKey())).toBeUndefined();
  });

  it('answers a repeat from memory once an entry came from Redis or was set here', async () => {
    const writer = cache();
    const reader = cache({ memoryBytes: 1_000_000 });
    const key = uniqueKey();
    await writer.set(key, '{"v":1}', 60);
    const first = await eventually('the entry from Redis', () => reader.get(key));
    expect(first.layer).toBe('shared');
    const second = await reader.get(key);
    expect(second).toMatchObject({ json: '{"v":1}', layer: 'memory' });
    expect(second!.ttlSec).toBeLessThanOrEqual(60);
    expect(reader.memoryStats.entries).toBe(1);
    // The memory layer answers even once Redis no longer has the entry.
    await redis.client.del(`${prefix}cache:${key}`);
    expect((await reader.get(key))?.layer).toBe('memory');
    expect(await writer.get(key)).toBeUndefined();

    const own = uniqueKey();
    await reader.set(own, '"mine"', 60);
    expect(await reader.get(own)).toMatchObject({ json: '"mine"', layer: 'memory' });
  });

  it('does not store entries over maxEntryBytes, counting UTF-8 bytes', async () => {
    const a = cache({ maxEntryBytes: 10, memoryBytes: 1_000_000 });
    const b = cache({ maxEntryBytes: 10 });
    const cases: [string, boolean][] = [
      ['"abcdefgh"', true], // 10 bytes
      ['"abcdefghi"', false], // 11 bytes
      ['"éééé"', true], // 6 units, 10 bytes
      ['"ééééé"', false], // 7 units, 12 bytes
      ['"😀😀"', true], // 6 units, 10 bytes
      ['"😀😀😀"', false], // 8 units, 14 bytes
      ['"€€€"', false], // 5 units, 11 bytes
    ];
    const keys = cases.map(() => uniqueKey());
    for (const [i, [json, stored]] of cases.entries()) {
      expect(Buffer.byteLength(json) <= 10, json).toBe(stored);
      expect(await a.set(keys[i]!, json, 60), json).toEqual(
        stored ? { stored: true, layer: 'shared' } : { stored: false, reason: 'too-large' },
      );
    }
    // A write after them all: once it is in Redis, the ones before it would be too.
    const marker = uniqueKey();
    expect(await a.set(marker, '1', 60)).toEqual({ stored: true, layer: 'shared' });
    await eventually('the marker entry', () => b.get(marker));
    for (const [i, [json, stored]] of cases.entries()) {
      const onA = await a.get(keys[i]!);
      const onB = await b.get(keys[i]!);
      if (stored) {
        expect(onA, json).toMatchObject({ json, layer: 'memory' });
        expect(onB, json).toMatchObject({ json, layer: 'shared' });
      } else {
        expect(onA, json).toBeUndefined();
        expect(onB, json).toBeUndefined();
        expect(await redis.client.exists(`${prefix}cache:${keys[i]}`), json).toBe(0);
      }
    }
  });

  it('lets an entry expire from Redis at its ttl, reporting no more than the ttl', async () => {
    const a = cache();
    const b = cache();
    const key = uniqueKey();
    await a.set(key, '{"short":true}', 1);
    // The entry may already be gone on a slow machine: a hit, if any, says ≤ 1 s.
    const hit = await b.get(key);
    if (hit) {
      expect(hit.layer).toBe('shared');
      expect(hit.ttlSec).toBeLessThanOrEqual(1);
    }
    const pttl = await redis.client.pttl(`${prefix}cache:${key}`);
    expect(pttl).toBeLessThanOrEqual(1000);
    await eventually(
      'the entry to expire in Redis',
      async () => ((await redis.client.exists(`${prefix}cache:${key}`)) === 0 ? true : undefined),
      10_000,
    );
    expect(await b.get(key)).toBeUndefined();
    expect(await a.get(key)).toBeUndefined();
  });

  it('drops an expired entry from memory too', async () => {
    const a = cache({ memoryBytes: 1_000_000 });
    const key = uniqueKey();
    await a.set(key, '"brief"', 1);
    const hit = await a.get(key);
    if (hit) expect(hit.ttlSec).toBeLessThanOrEqual(1);
    await eventually('the memory entry to expire', async () =>
      (await a.get(key)) === undefined ? true : undefined,
    );
    expect(a.memoryStats.entries).toBe(0);
  });

  it('takes a value of another shape at its key for a miss', async () => {
    const c = cache({ memoryBytes: 1_000_000 });
    const foreign = [
      'hello',
      '{"a":1}',
      '\n{"a":1}',
      'abc\n{"a":1}',
      `${Date.now() - 1000}\n{"a":1}`, // already over
      'Infinity\n{"a":1}',
      '',
    ];
    for (const value of foreign) {
      const key = uniqueKey();
      await redis.client.set(`${prefix}cache:${key}`, value, 'EX', 60);
      expect(await c.get(key), JSON.stringify(value)).toBeUndefined();
    }
    // Another type at the key (WRONGTYPE) is a miss, not an error.
    const listKey = uniqueKey();
    await redis.client.rpush(`${prefix}cache:${listKey}`, 'x');
    await redis.client.expire(`${prefix}cache:${listKey}`, 60);
    await expect(c.get(listKey)).resolves.toBeUndefined();
    expect(c.memoryStats.entries).toBe(0);
    // The shape it writes is read back.
    const good = uniqueKey();
    await redis.client.set(`${prefix}cache:${good}`, `${Date.now() + 30_000}\n{"a":1}`, 'EX', 60);
    expect(await c.get(good)).toMatchObject({ json: '{"a":1}', layer: 'shared' });
  });

  it('misses and skips writes while its Redis is away, and works again once it is back', async () => {
    const priv = new PrivateRedis();
    let lr: LimiterRedis | undefined;
    try {
      await priv.start();
      lr = new LimiterRedis(priv.url, 200);
      await usable(lr);
      const opts = { redis: lr, prefix, maxEntryBytes: 100_000, memoryBytes: 0 };
      const a = new ResultCache(opts);
      const b = new ResultCache(opts);
      const before = uniqueKey();
      expect(await a.set(before, '"before"', 60)).toEqual({ stored: true, layer: 'shared' });
      await eventually('the entry before the stop', () => b.get(before));

      await priv.stop();
      // Whether the client has noticed yet or not: a miss, never a throw, and a write that
      // says it stored nothing (no layer took it: there is no in-process layer here).
      const nowhere = { stored: false, reason: 'unavailable' };
      for (let i = 0; i < 5; i++) {
        await expect(b.get(before)).resolves.toBeUndefined();
        expect(await a.set(uniqueKey(), '"while away"', 60)).toEqual(nowhere);
        await sleep(20);
      }
      await eventually('the client to notice', async () => (lr!.usable() ? undefined : true));
      await expect(b.get(before)).resolves.toBeUndefined();
      expect(await a.set(uniqueKey(), '"while away"', 60)).toEqual(nowhere);
      // With an in-process layer, the result is stored there, and says so.
      const withMemory = new ResultCache({ ...opts, memoryBytes: 1_000_000 });
      const local = uniqueKey();
      expect(await withMemory.set(local, '"here"', 60)).toEqual({ stored: true, layer: 'memory' });
      expect(await withMemory.get(local)).toMatchObject({ json: '"here"', layer: 'memory' });

      await priv.start();
      // Back: a fresh entry travels through Redis again (the old one died with the process).
      const after = uniqueKey();
      const hit = await eventually(
        'the cache to work again',
        async () => {
          await a.set(after, '"after"', 60);
          return b.get(after);
        },
        20_000,
      );
      expect(hit).toMatchObject({ json: '"after"', layer: 'shared' });
      expect(await b.get(before)).toBeUndefined();
    } finally {
      await lr?.close();
      await priv.stop();
    }
  });

  it('reads the write time, and an entry written without one (by an older hub) as of unknown age', async () => {
    const c = cache();
    const legacy = uniqueKey();
    const ends = Date.now() + 30_000;
    await redis.client.set(`${prefix}cache:${legacy}`, `${ends}\n{"a":1}`, 'EX', 60);
    expect(await c.get(legacy)).toMatchObject({ json: '{"a":1}', expiresAt: ends, storedAt: undefined });
    const current = uniqueKey();
    await redis.client.set(`${prefix}cache:${current}`, `${ends},${ends - 50_000}\n{"a":2}`, 'EX', 60);
    expect(await c.get(current)).toMatchObject({ json: '{"a":2}', expiresAt: ends, storedAt: ends - 50_000 });
  });

  it('leaves Redis alone while the shared layer is held off, and says where it stored', async () => {
    let allowed = false;
    const held = cache({ sharedAllowed: () => allowed, memoryBytes: 1_000_000 });
    const reader = cache();
    const key = uniqueKey();
    expect(await held.set(key, '"local"', 60)).toEqual({ stored: true, layer: 'memory' });
    expect(await redis.client.exists(`${prefix}cache:${key}`)).toBe(0);
    const theirs = uniqueKey();
    await reader.set(theirs, '"theirs"', 60);
    expect(await held.get(theirs)).toBeUndefined();
    allowed = true;
    expect(await held.get(theirs)).toMatchObject({ json: '"theirs"', layer: 'shared' });
    expect(await held.set(uniqueKey(), '"both"', 60)).toEqual({ stored: true, layer: 'shared' });
  });
});

describe('ResultCache without Redis', () => {
  it('is a memory cache, and a miss everywhere with no memory either', async () => {
    const mem = new ResultCache({ redis: null, prefix, maxEntryBytes: 100, memoryBytes: 10_000 });
    const key = uniqueKey();
    expect(await mem.get(key)).toBeUndefined();
    expect(await mem.set(key, '[1]', 60)).toEqual({ stored: true, layer: 'memory' });
    const hit: CacheHit | undefined = await mem.get(key);
    expect(hit).toMatchObject({ json: '[1]', layer: 'memory' });
    expect(hit!.ttlSec).toBeGreaterThan(0);
    expect(hit!.ttlSec).toBeLessThanOrEqual(60);

    const none = new ResultCache({ redis: null, prefix, maxEntryBytes: 100, memoryBytes: 0 });
    expect(await none.set(key, '[1]', 60)).toEqual({ stored: false, reason: 'unavailable' });
    expect(await none.get(key)).toBeUndefined();
  });
});
