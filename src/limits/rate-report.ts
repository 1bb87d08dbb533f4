import type { ToolPolicy } from '../config/policy.js';
import type { RateLimitInfo } from '../errors.js';
import type { RateDecision } from './rate-limit.js';

/** What a client is told about its rate limit: the `rateLimit` block and the headers. */
export interface RateReport {
  info: RateLimitInfo;
  headers: Record<string, string | number>;
}

export function rateReport(toolId: string, policy: ToolPolicy, rate: RateDecision): RateReport {
  const resetSec = Math.ceil(rate.resetMs / 1000);
  return {
    info: {
      limit: policy.limit,
      burst: policy.burst,
      windowSec: policy.windowSec,
      remaining: rate.remaining,
      resetMs: rate.resetMs,
      retryAfterSec: rate.retryAfterSec,
    },
    // IETF RateLimit fields (draft -11) and the widely read X-RateLimit-* (docs/api.md).
    headers: {
      'RateLimit-Policy': `"${toolId}";q=${policy.limit};w=${policy.windowSec}`,
      RateLimit: `"${toolId}";r=${rate.remaining};t=${resetSec}`,
      'X-RateLimit-Limit': policy.limit + policy.burst,
      'X-RateLimit-Remaining': rate.remaining,
      'X-RateLimit-Reset': resetSec,
    },
  };
}
