import { Redis } from 'ioredis';

/**
 * The limiter's Redis connection and its health. Commands fail fast instead of
 * queueing while Redis is away (no offline queue, a command timeout), so a request
 * never hangs on Redis: the caller falls back to the in-process insurance store.
 * After a failure Redis is skipped for `coolDownMs` (a small circuit breaker), so a
 * slow Redis costs one timeout per cool-down, not one per request.
 */
export class LimiterRedis {
  readonly client: Redis;
  private lastFailureAt = 0;
  private readonly coolDownMs: number;
  /** Called on every fall-back (metrics). */
  onFallback: (reason: string) => void = () => {};

  constructor(url: string, commandTimeoutMs: number, coolDownMs = 1000) {
    this.coolDownMs = coolDownMs;
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      commandTimeout: commandTimeoutMs,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      lazyConnect: false,
      retryStrategy: (times) => Math.min(50 * times, 1000),
    });
    // Without a listener ioredis prints every connection error; health is tracked instead.
    this.client.on('error', () => this.failed('connection error'));
    this.client.defineCommand('toolhubAdmit', { numberOfKeys: 2, lua: ADMIT_LUA });
    this.client.defineCommand('toolhubRelease', { numberOfKeys: 2, lua: RELEASE_LUA });
  }

  /** True when calls should go to Redis now (connected and not cooling down after a failure). */
  usable(): boolean {
    return this.client.status === 'ready' && Date.now() - this.lastFailureAt >= this.coolDownMs;
  }

  /** Degraded: not connected, or a command failed recently. */
  get degraded(): boolean {
    return this.client.status !== 'ready' || Date.now() - this.lastFailureAt < this.coolDownMs * 5;
  }

  failed(reason: string): void {
    this.lastFailureAt = Date.now();
    this.onFallback(reason);
  }

  async close(): Promise<void> {
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }
}

/**
 * One round trip for the budget check and the per-client concurrency slot.
 * KEYS: budget, in-flight. ARGV: budgetMs, maxInFlight, slotTtlMs.
 * Returns {budgetUsed, budgetPttl, inFlight}; inFlight is -1 when the cap is reached
 * (nothing taken) and the slot is not taken when the budget is spent.
 */
const ADMIT_LUA = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local pttl = redis.call('PTTL', KEYS[1])
if used >= tonumber(ARGV[1]) then return {used, pttl, 0} end
local n = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
if n > tonumber(ARGV[2]) then
  redis.call('DECR', KEYS[2])
  return {used, pttl, -1}
end
return {used, pttl, n}`;

/**
 * After a run: free the slot and charge the worker time to the budget window.
 * KEYS: budget, in-flight. ARGV: chargedMs, windowMs, releaseSlot (1/0).
 */
const RELEASE_LUA = `
if ARGV[3] == '1' then
  local n = redis.call('DECR', KEYS[2])
  if n <= 0 then redis.call('DEL', KEYS[2]) end
end
local ms = tonumber(ARGV[1])
if ms > 0 then
  local total = redis.call('INCRBY', KEYS[1], ms)
  if total == ms or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
end
return 1`;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    toolhubAdmit(
      budgetKey: string,
      inFlightKey: string,
      budgetMs: number,
      maxInFlight: number,
      slotTtlMs: number,
    ): Promise<[number, number, number]>;
    toolhubRelease(
      budgetKey: string,
      inFlightKey: string,
      chargedMs: number,
      windowMs: number,
      releaseSlot: 0 | 1,
    ): Promise<number>;
  }
}
