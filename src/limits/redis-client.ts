import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config/redis-target.js';
import { EVENTS } from '../shared/events.js';
import { DECIDE_LUA, RELEASE_LUA, RENEW_LUA, SETTLE_LUA, USAGE_LUA } from './scripts.js';

/**
 * The limiter's Redis connection and its health. Commands fail fast instead of
 * queueing while Redis is away (no offline queue, a command timeout), so a request
 * never hangs on Redis: the caller falls back to the in-process insurance store.
 * After a failure Redis is skipped for `coolDownMs` (a small circuit breaker), so a
 * slow Redis costs one timeout per cool-down, not one per request.
 */
export class LimiterRedis {
  readonly client: Redis | Cluster;
  /** A Redis Cluster: a script call may only name keys of one hash slot. */
  readonly cluster: boolean;
  private lastFailureAt = 0;
  private readonly coolDownMs: number;
  private down = false;
  private recoveryCheck: NodeJS.Timeout | null = null;
  /** Calls given up on at the command timeout and not answered yet. */
  private readonly unsure = new Set<Promise<unknown>>();

  constructor(
    target: RedisTarget | string,
    /** How long a command may take before the caller stops waiting (REDIS_COMMAND_TIMEOUT_MS). */
    readonly commandTimeoutMs: number,
    coolDownMs = 1000,
  ) {
    this.coolDownMs = coolDownMs;
    const at: RedisTarget = typeof target === 'string' ? { kind: 'url', url: target } : target;
    const options: RedisOptions = {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      // Callers stop waiting at commandTimeoutMs (`bounded`); ioredis gives up on a command
      // only well after, so an answer that comes late is still heard (src/limits/redis-store.ts).
      commandTimeout: Math.max(LATE_ANSWER_MS, 10 * commandTimeoutMs),
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      lazyConnect: false,
      retryStrategy: (times) => Math.min(50 * times, 1000),
    };
    this.cluster = at.kind === 'cluster';
    this.client =
      at.kind === 'cluster'
        ? // A cluster client connects to each node on its first command there: those first
          // commands wait for the connection (offline queue), still bounded by commandTimeout.
          // No auto-pipelining: ioredis refuses an automatic pipeline whose commands fall in
          // different slot groups ("All keys in the pipeline should belong to the same slots
          // allocation group"), and one turn's commands name many clients' keys.
          new Cluster(at.nodes, {
            enableOfflineQueue: true,
            enableAutoPipelining: false,
            clusterRetryStrategy: (times) => Math.min(100 * times, 1000),
            redisOptions: { ...withoutOfflineQueue(options), enableAutoPipelining: false },
          })
        : at.kind === 'sentinel'
          ? new Redis({ ...options, sentinels: at.sentinels, name: at.name })
          : new Redis(at.url, options);
    // Without a listener ioredis prints every connection error; health is tracked instead.
    this.client.on('error', () => this.failed('connection error'));
    this.client.on('ready', () => this.markUp());
    // No fixed key count: the caller sends one call for many requests (src/limits/redis-store.ts).
    this.client.defineCommand('toolhubDecide', { lua: DECIDE_LUA });
    this.client.defineCommand('toolhubRelease', { lua: RELEASE_LUA });
    this.client.defineCommand('toolhubSettle', { lua: SETTLE_LUA });
    this.client.defineCommand('toolhubRenew', { lua: RENEW_LUA });
    this.client.defineCommand('toolhubUsage', { lua: USAGE_LUA, numberOfKeys: 2 });
  }

  /**
   * `call`, given up on after commandTimeoutMs (a TimedOut error): the caller goes on without
   * it. The call itself goes on, and `late` hears its answer if one comes after all.
   */
  bounded<T>(call: Promise<T>, late?: (value: T) => void): Promise<T> {
    return new Promise((resolve, reject) => {
      let gaveUp = false;
      const timer = setTimeout(() => {
        gaveUp = true;
        const settled: Promise<void> = call
          .then(
            () => undefined,
            () => undefined,
          )
          .finally(() => {
            this.unsure.delete(settled);
          });
        this.unsure.add(settled);
        reject(new TimedOut());
      }, this.commandTimeoutMs);
      call.then(
        (value) => {
          clearTimeout(timer);
          if (!gaveUp) resolve(value);
          else late?.(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          if (!gaveUp) reject(err);
        },
      );
    });
  }

  /** Once every call given up on so far has its answer (or has failed): what was taken late is known then. */
  async answered(): Promise<void> {
    await Promise.all([...this.unsure]);
  }

  /** True when calls should go to Redis now (connected and not cooling down after a failure). */
  usable(): boolean {
    return this.client.status === 'ready' && Date.now() - this.lastFailureAt >= this.coolDownMs;
  }

  /** Degraded: not connected, or a command failed recently. */
  get degraded(): boolean {
    return this.client.status !== 'ready' || Date.now() - this.lastFailureAt < this.coolDownMs * 5;
  }

  /** A call served in-process instead of by this store (EVENTS.limiterFallback: the metric). */
  fellBack(reason: string): void {
    EVENTS.limiterFallback.publish({ source: this, reason });
  }

  failed(reason: string): void {
    this.lastFailureAt = Date.now();
    this.fellBack(reason);
    if (this.down) return;
    this.down = true;
    EVENTS.limiterState.publish({ source: this, state: 'down', reason });
    // A slow Redis fails commands without dropping the connection (no 'ready' comes
    // again): the store counts as back once it has gone a while without failing.
    this.recoveryCheck = setInterval(() => {
      if (!this.degraded) this.markUp();
    }, this.coolDownMs);
    this.recoveryCheck.unref();
  }

  private markUp(): void {
    if (this.recoveryCheck) clearInterval(this.recoveryCheck);
    this.recoveryCheck = null;
    if (!this.down) return;
    this.down = false;
    EVENTS.limiterState.publish({ source: this, state: 'up', reason: 'serving again' });
  }

  async close(): Promise<void> {
    if (this.recoveryCheck) clearInterval(this.recoveryCheck);
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/** How long ioredis waits for an answer at least, after the caller gave up on it. */
const LATE_ANSWER_MS = 2000;

/** A call given up on at the command timeout (it may still run in Redis, and answer late). */
export class TimedOut extends Error {
  override readonly name = 'TimedOut';
  constructor() {
    super('Command timed out');
  }
}

declare module 'ioredis' {
  interface RedisCommander<Context> {
    /** `numKeys`, then the keys, then the arguments (src/limits/lua/decide.lua). */
    toolhubDecide(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
    /** `numKeys`, then the keys, then the arguments (src/limits/lua/release.lua). */
    toolhubRelease(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<number>;
    /** `numKeys`, then the keys, then the arguments (src/limits/lua/settle.lua). */
    toolhubSettle(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<number>;
    /** `numKeys`, then the keys, then the arguments (src/limits/lua/renew.lua). */
    toolhubRenew(numKeys: number, ...keysThenArgs: (string | number)[]): Promise<number>;
    /** The counters, the leases, now, the tier (src/limits/lua/usage.lua). */
    toolhubUsage(counters: string, leases: string, now: number, tier: string): Promise<number[]>;
  }
}

/** Node options of a cluster client: the cluster client owns the offline queue setting. */
function withoutOfflineQueue(options: RedisOptions): Omit<RedisOptions, 'enableOfflineQueue'> {
  const { enableOfflineQueue: _owned, ...rest } = options;
  return rest;
}
