import { NO_QUOTAS } from '../config/quota.js';
import { MCP_MESSAGES_LIMIT } from '../limits/limit-names.js';
import type { Limits } from '../limits/limits.js';
import { limitField, policyField, ratePolicy, secondsOf } from '../limits/ratelimit-fields.js';
import type { StorePolicy } from '../limits/store.js';

/** The answer to one /mcp request's messages: allowed, or refused until `retryAfterSec`. */
export interface MessageDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSec: number;
  retryAfterSec: number;
}

const WINDOW_SEC = 60;

/**
 * Every JSON-RPC message on /mcp costs its sender one point of MCP_MESSAGE_LIMIT a minute
 * (docs/api.md, "MCP for agents"), whatever its method: listings and reads included, which
 * no tool's rate limit counts. A request is charged all its messages at once (a message array
 * of 20 costs 20), before any of them is served. It is counted by the limit store like a tool's
 * rate limit (src/limits/limits.ts): in Redis, in the turn's one decide call, shared by
 * every replica; in-process without Redis or while it is away.
 */
export class McpMessageLimit {
  private readonly policy: StorePolicy;

  constructor(
    readonly limit: number,
    private readonly limits: Limits,
  ) {
    this.policy = {
      tier: '',
      limit: Math.max(limit, 1),
      burst: 0,
      windowMs: WINDOW_SEC * 1000,
      budgetMs: 0,
      cap: 0,
      leaseMs: 0,
      reserveMs: 0,
      quotas: NO_QUOTAS,
    };
  }

  /** Charges `messages` points to `client`; off (limit 0) allows everything. */
  async consume(client: string, messages: number): Promise<MessageDecision> {
    if (this.limit === 0) return { allowed: true, limit: 0, remaining: 0, resetSec: 0, retryAfterSec: 0 };
    const d = await this.limits.countMessages(client, messages, this.policy);
    return {
      allowed: d.allowed,
      limit: this.limit,
      remaining: d.remaining,
      resetSec: secondsOf(d.resetMs),
      retryAfterSec: d.retryAfterSec,
    };
  }
}

/**
 * The IETF RateLimit fields of an /mcp answer while the limit is on: the message limit, named
 * `@mcp` (docs/api.md, "Limit names and the RateLimit headers"). A tool's own limits travel
 * in each call's result (`_meta.rateLimitFields`).
 */
export function messageFields(d: MessageDecision): Record<string, string> {
  if (d.limit === 0) return {};
  return {
    'RateLimit-Policy': policyField([ratePolicy(MCP_MESSAGES_LIMIT, d.limit, 0, WINDOW_SEC)]),
    RateLimit: limitField([{ name: MCP_MESSAGES_LIMIT, r: d.remaining, t: d.resetSec }]),
  };
}
