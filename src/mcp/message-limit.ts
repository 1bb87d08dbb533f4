import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { InsuredRedisLimiter } from '../limits/rate-limit.js';
import type { LimiterRedis } from '../limits/redis-client.js';

/** The answer to one /mcp request's messages: allowed, or refused until `retryAfterSec`. */
export interface MessageDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSec: number;
}

const WINDOW_SEC = 60;

/**
 * Every JSON-RPC message on /mcp costs its sender one point of MCP_MESSAGE_LIMIT a minute
 * (docs/api.md, "MCP for agents"), whatever its method: listings and reads included, which
 * no tool's rate limit counts. A request is charged all its messages at once (a batch of 20
 * costs 20), before any of them is served. With Redis the count is shared by every
 * replica (rate-limiter-flexible's fixed window on one key per client, so it works alike on
 * a single Redis, Sentinel and Cluster); while Redis is away, the in-process insurance
 * counts, as for the tools' rate limits.
 */
export class McpMessageLimit {
  private readonly memory: RateLimiterMemory;
  private readonly redis: InsuredRedisLimiter | null;

  constructor(
    readonly limit: number,
    private readonly store: LimiterRedis | null,
    prefix: string,
  ) {
    const opts = { points: Math.max(limit, 1), duration: WINDOW_SEC };
    this.memory = new RateLimiterMemory({ ...opts, keyPrefix: 'mcp-msg' });
    this.redis = store
      ? new InsuredRedisLimiter(store, {
          ...opts,
          storeClient: store.client,
          rejectIfRedisNotReady: true,
          keyPrefix: `${prefix}mcp-msg`,
          insuranceLimiter: this.memory,
        })
      : null;
  }

  /** Charges `messages` points to `client`; off (limit 0) allows everything. */
  async consume(client: string, messages: number): Promise<MessageDecision> {
    if (this.limit === 0) return { allowed: true, limit: 0, remaining: 0, retryAfterSec: 0 };
    const useRedis = this.redis !== null && this.store?.usable() === true;
    const limiter = useRedis ? this.redis! : this.memory;
    try {
      const res = await limiter.consume(client, messages);
      return this.decision(res, true);
    } catch (rej) {
      if (rej instanceof RateLimiterRes) return this.decision(rej, false);
      this.store?.failed(`MCP message limit: ${(rej as Error).message}`);
      return { allowed: true, limit: this.limit, remaining: 0, retryAfterSec: 0 };
    }
  }

  private decision(res: RateLimiterRes, allowed: boolean): MessageDecision {
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - res.consumedPoints),
      retryAfterSec: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}
