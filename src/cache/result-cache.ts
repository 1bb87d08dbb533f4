import type { LimiterRedis } from '../limits/redis-client.js';
import { MemoryLayer } from './memory-layer.js';

/** Where a hit came from: this instance's memory, or Redis (computed by any replica). */
export type CacheLayer = 'memory' | 'shared';

export interface CacheHit {
  json: string;
  layer: CacheLayer;
  /** Seconds the entry has left. */
  ttlSec: number;
}

export interface ResultCacheOptions {
  /** The limiter's Redis connection; null: memory only. */
  redis: LimiterRedis | null;
  prefix: string;
  /** Results longer than this (UTF-8 bytes) are not stored (CACHE_MAX_ENTRY_BYTES). */
  maxEntryBytes: number;
  /** Bound of the in-process layer (CACHE_MEMORY_BYTES); 0: none. */
  memoryBytes: number;
}

/**
 * The shared result cache (docs/api.md, "Result cache and ETags"): content-addressed
 * results, in Redis for every replica, with a bounded in-process layer in front. Redis is a
 * best effort: while it is away (not connected, or cooling down after a failure) a lookup is
 * a miss and a store is skipped, never an error and never a wait past the command timeout.
 * A Redis value is `<expiresAtMs>\n<json>`: one GET gives the memory layer the entry's end.
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

  async get(key: string): Promise<CacheHit | undefined> {
    const now = Date.now();
    const local = this.memory.get(key, now);
    if (local) return { json: local.json, layer: 'memory', ttlSec: seconds(local.expiresAt - now) };
    const redis = this.opts.redis;
    if (!redis?.usable()) return undefined;
    let value: string | null;
    try {
      value = await redis.bounded(redis.client.get(this.redisKey(key)));
    } catch (err) {
      // The breaker the limiter uses: a slow or lost Redis costs one timeout per cool-down, not
      // one per lookup. Redis's own answer (a value of another type at the key) is only a miss.
      if ((err as Error).name !== 'ReplyError') redis.failed('result cache read');
      return undefined;
    }
    if (value === null) return undefined;
    const cut = value.indexOf('\n');
    const expiresAt = Number(value.slice(0, cut));
    // A value not of this shape (another writer under the prefix) is a miss.
    if (cut < 1 || !Number.isFinite(expiresAt) || expiresAt <= now) return undefined;
    const json = value.slice(cut + 1);
    this.memory.set(key, json, expiresAt);
    return { json, layer: 'shared', ttlSec: seconds(expiresAt - now) };
  }

  /**
   * Stores a result for `ttlSec` unless it is over the size bound; false when it was not
   * stored. The Redis write is awaited (bounded by the command timeout, skipped while Redis
   * is away): once a miss is answered, every replica finds its result.
   */
  async set(key: string, json: string, ttlSec: number): Promise<boolean> {
    // A UTF-8 byte is at most 3 per UTF-16 unit: most results pass without counting.
    if (json.length * 3 > this.opts.maxEntryBytes && Buffer.byteLength(json) > this.opts.maxEntryBytes)
      return false;
    const expiresAt = Date.now() + ttlSec * 1000;
    this.memory.set(key, json, expiresAt);
    const redis = this.opts.redis;
    if (redis?.usable()) {
      try {
        await redis.bounded(
          redis.client.set(this.redisKey(key), `${expiresAt}\n${json}`, 'PX', ttlSec * 1000),
        );
      } catch (err) {
        // Best effort: another replica computes the result again.
        if ((err as Error).name !== 'ReplyError') redis.failed('result cache write');
      }
    }
    return true;
  }

  /** What the in-process layer holds now (the metrics). */
  get memoryStats(): { entries: number; bytes: number } {
    return this.memory.stats;
  }
}

function seconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}
