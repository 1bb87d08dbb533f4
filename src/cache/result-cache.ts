import type { LimiterRedis } from '../limits/redis-client.js';
import { MemoryLayer } from './memory-layer.js';

/** Where a result is held: this instance's memory (the in-process layer), or Redis for every replica (the shared layer). */
export type CacheLayer = 'memory' | 'shared';

export interface CacheHit {
  json: string;
  layer: CacheLayer;
  /** Seconds the entry has left. */
  ttlSec: number;
  /** When the entry ends (ms). */
  expiresAt: number;
  /** When it was stored (ms); undefined for an entry written without it (by an older hub). */
  storedAt: number | undefined;
}

/** Where a result went: a layer, or why none took it. */
export type Stored =
  | { stored: true; layer: CacheLayer }
  | { stored: false; reason: 'too-large' | 'unavailable' };

export interface ResultCacheOptions {
  /** The shared layer's own connection (its own breaker); null: the in-process layer only. */
  redis: LimiterRedis | null;
  /** Whether the shared layer may be used now (the limiter's Redis only while it cannot evict); default: always. */
  sharedAllowed?: () => boolean;
  prefix: string;
  /** Results longer than this (UTF-8 bytes) are not stored (CACHE_MAX_ENTRY_BYTES). */
  maxEntryBytes: number;
  /** Bound of the in-process layer (CACHE_MEMORY_BYTES); 0: none. */
  memoryBytes: number;
}

/** A Redis value's head: `<expiresAtMs>,<storedAtMs>`, or `<expiresAtMs>` as older hubs wrote it. */
const HEAD = /^(\d{1,16})(?:,(\d{1,16}))?$/;

/**
 * The result cache (docs/api.md, "Result cache and ETags"): content-addressed
 * results, in Redis for every replica (the shared layer, docs/operations.md, "Result cache"),
 * with a bounded in-process layer in front. Redis is a best effort: while it is away (not
 * connected, or cooling down after a failure) or held off, a lookup is a miss and a write
 * goes to the in-process layer only, never an error and never a wait past the command
 * timeout. A Redis value is `<expiresAtMs>,<storedAtMs>\n<json>`: one GET gives the memory
 * layer the entry's end and a request's `max-age` its age.
 */
export class ResultCache {
  private readonly memory: MemoryLayer;

  constructor(private readonly opts: ResultCacheOptions) {
    this.memory = new MemoryLayer(opts.memoryBytes);
  }

  /** The Redis key of a content key: one key, so any Cluster slot serves it. */
  private redisKey(key: string): string {
    return `${this.opts.prefix}cache:${key}`;
  }

  /** The shared layer's connection when it may be used now. */
  private sharedLayer(): LimiterRedis | null {
    const redis = this.opts.redis;
    if (!redis?.usable()) return null;
    return this.opts.sharedAllowed && !this.opts.sharedAllowed() ? null : redis;
  }

  async get(key: string): Promise<CacheHit | undefined> {
    const now = Date.now();
    const local = this.memory.get(key, now);
    if (local) return { ...hitOf(local, now), layer: 'memory' };
    const redis = this.sharedLayer();
    if (!redis) return undefined;
    let value: string | null;
    try {
      value = await redis.bounded(redis.client.get(this.redisKey(key)));
    } catch (err) {
      // The cache's own breaker: a slow or lost Redis costs one timeout per cool-down, not
      // one per lookup. Redis's own answer (a value of another type at the key) is only a miss.
      if ((err as Error).name !== 'ReplyError') redis.failed('result cache read');
      return undefined;
    }
    if (value === null) return undefined;
    const cut = value.indexOf('\n');
    const head = HEAD.exec(value.slice(0, cut));
    // A value not of this shape (another writer under the prefix) is a miss.
    if (cut < 1 || !head) return undefined;
    const expiresAt = Number(head[1]);
    const storedAt = head[2] === undefined ? undefined : Number(head[2]);
    if (expiresAt <= now) return undefined;
    const json = value.slice(cut + 1);
    this.memory.set(key, json, expiresAt, storedAt);
    return { ...hitOf({ json, expiresAt, storedAt }, now), layer: 'shared' };
  }

  /**
   * Stores a result for `ttlSec` unless it is over the size bound, and says where it went.
   * The Redis write is awaited (bounded by the command timeout, skipped while Redis is away
   * or held off): once a miss is answered `shared`, every replica finds its result.
   */
  async set(key: string, json: string, ttlSec: number): Promise<Stored> {
    // A UTF-8 byte is at most 3 per UTF-16 unit: most results pass without counting.
    if (json.length * 3 > this.opts.maxEntryBytes && Buffer.byteLength(json) > this.opts.maxEntryBytes)
      return { stored: false, reason: 'too-large' };
    const storedAt = Date.now();
    const expiresAt = storedAt + ttlSec * 1000;
    const inMemory = this.memory.set(key, json, expiresAt, storedAt);
    const redis = this.sharedLayer();
    if (redis) {
      try {
        await redis.bounded(
          redis.client.set(this.redisKey(key), `${expiresAt},${storedAt}\n${json}`, 'PX', ttlSec * 1000),
        );
        return { stored: true, layer: 'shared' };
      } catch (err) {
        // Best effort: another replica computes the result again. An error of Redis's own
        // (out of memory under noeviction) leaves the breaker alone.
        if ((err as Error).name !== 'ReplyError') redis.failed('result cache write');
      }
    }
    return inMemory ? { stored: true, layer: 'memory' } : { stored: false, reason: 'unavailable' };
  }

  /** What the in-process layer holds now (the metrics). */
  get memoryStats(): { entries: number; bytes: number } {
    return this.memory.stats;
  }
}

function hitOf(
  e: { json: string; expiresAt: number; storedAt: number | undefined },
  now: number,
): Omit<CacheHit, 'layer'> {
  return { json: e.json, expiresAt: e.expiresAt, storedAt: e.storedAt, ttlSec: seconds(e.expiresAt - now) };
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
