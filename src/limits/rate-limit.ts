import {
  BurstyRateLimiter,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { ToolPolicy } from '../config/policy.js';
import { rateKeyPrefix, rateName } from './keys.js';
import type { LimiterRedis } from './redis-client.js';

/**
 * A Redis limiter that tells the connection's health when it falls back to its insurance.
 * It overrides a private method: rate-limiter-flexible (checked against 11.4.0) routes
 * every store error of an insured limiter through `_handleError(err, funcName, resolve,
 * reject, params)` before it asks the insurance limiter; the library has no public hook
 * for that moment. src/limits/rate-limit.test.ts fails if a release stops calling it.
 */
export class InsuredRedisLimiter extends RateLimiterRedis {
  constructor(
    private readonly health: LimiterRedis,
    opts: ConstructorParameters<typeof RateLimiterRedis>[0],
  ) {
    super(opts);
  }

  _handleError(err: unknown, ...rest: unknown[]): void {
    if (!(err instanceof RateLimiterRes)) this.health.failed(`rate limiter: ${(err as Error)?.message}`);
    (RateLimiterRedis.prototype as unknown as { _handleError: (...a: unknown[]) => void })._handleError.call(
      this,
      err,
      ...rest,
    );
  }
}

export interface RateDecision {
  allowed: boolean;
  /** Runs this client may still make in the window, the burst allowance included. */
  remaining: number;
  resetMs: number;
  retryAfterSec: number;
}

interface ToolLimiters {
  memory: BurstyRateLimiter;
  redis: BurstyRateLimiter | null;
  policy: ToolPolicy;
}

/**
 * Per client and tool rate limits with rate-limiter-flexible's BurstyRateLimiter
 * (docs/api.md, "Rate limit and its headers"): `limit` runs per fixed window, then `burst` more per window.
 * With Redis, each Redis limiter has the in-process one as its insurance, so counts
 * carry on in-process while Redis is away (each instance then counts alone).
 */
export class RateLimits {
  /** By `toolId` and tier ('' without one): limiters are made on first use. */
  private readonly tools = new Map<string, ToolLimiters>();

  constructor(
    private readonly redis: LimiterRedis | null,
    private readonly prefix: string,
  ) {}

  /** The limiters of a tool under one tier's numbers; their keys are the tier's own. */
  private limiters(toolId: string, policy: ToolPolicy, tier: string): ToolLimiters {
    const name = rateName(toolId, tier);
    let t = this.tools.get(name);
    if (t) return t;
    const main = { points: policy.limit, duration: policy.windowSec };
    const burst = { points: Math.max(policy.burst, 0), duration: policy.windowSec };
    const memMain = new RateLimiterMemory({ ...main, keyPrefix: `rl:${name}` });
    const memBurst = new RateLimiterMemory({ ...burst, keyPrefix: `rlb:${name}` });
    let redisLimiter: BurstyRateLimiter | null = null;
    if (this.redis) {
      const common = { storeClient: this.redis.client, rejectIfRedisNotReady: true };
      redisLimiter = new BurstyRateLimiter(
        new InsuredRedisLimiter(this.redis, {
          ...common,
          ...main,
          keyPrefix: rateKeyPrefix(this.prefix, name).main,
          insuranceLimiter: memMain,
        }),
        new InsuredRedisLimiter(this.redis, {
          ...common,
          ...burst,
          keyPrefix: rateKeyPrefix(this.prefix, name).burst,
          insuranceLimiter: memBurst,
        }),
      );
    }
    t = { memory: new BurstyRateLimiter(memMain, memBurst), redis: redisLimiter, policy };
    this.tools.set(name, t);
    return t;
  }

  /** True when the counts live in Redis now (not in-process, not degraded). */
  get shared(): boolean {
    return this.redis?.usable() === true;
  }

  /** One run of `client` on `toolId`, counted under `policy` (a tier's numbers, keys of its own). */
  async consume(toolId: string, client: string, policy: ToolPolicy, tier = ''): Promise<RateDecision> {
    const t = this.limiters(toolId, policy, tier);
    const useRedis = t.redis !== null && this.redis?.usable() === true;
    // Redis is configured but away (or cooling down after a failure): this call is served
    // by the in-process insurance store, and the metric counts it.
    if (t.redis !== null && !useRedis) this.redis?.fellBack('not ready');
    const limiter = useRedis ? t.redis! : t.memory;
    try {
      return decision(t.policy, await limiter.consume(client), true);
    } catch (rej) {
      if (rej instanceof RateLimiterRes) return decision(t.policy, rej, false);
      // Both Redis and the insurance failed: should not happen; count it and use memory.
      this.redis?.failed(`rate limiter: ${(rej as Error).message}`);
      return this.consumeMemory(t, client);
    }
  }

  /** One run counted in-process only: the fall-back when a batched Redis check failed. */
  consumeHere(toolId: string, client: string, policy: ToolPolicy, tier = ''): Promise<RateDecision> {
    return this.consumeMemory(this.limiters(toolId, policy, tier), client);
  }

  private async consumeMemory(t: ToolLimiters, client: string): Promise<RateDecision> {
    try {
      return decision(t.policy, await t.memory.consume(client), true);
    } catch (rej) {
      if (rej instanceof RateLimiterRes) return decision(t.policy, rej, false);
      throw rej;
    }
  }
}

function decision(policy: ToolPolicy, res: RateLimiterRes, allowed: boolean): RateDecision {
  return rateDecision(policy, res.consumedPoints, res.msBeforeNext, allowed);
}

/**
 * The main limiter's counter goes on counting past `limit` (every attempt is an
 * increment), so the burst used in this window is what lies beyond `limit`.
 */
export function rateDecision(
  policy: ToolPolicy,
  consumed: number,
  msBeforeNext: number,
  allowed: boolean,
): RateDecision {
  const remaining = allowed
    ? Math.max(0, policy.limit - consumed) + Math.max(0, policy.burst - Math.max(0, consumed - policy.limit))
    : 0;
  const resetMs = Math.max(0, msBeforeNext);
  return { allowed, remaining, resetMs, retryAfterSec: Math.max(1, Math.ceil(resetMs / 1000)) };
}
