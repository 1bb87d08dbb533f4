import type { ToolPolicy } from '../config/policy.js';
import type { RateLimitInfo } from '../errors.js';
import type { RateDecision } from './decisions.js';

/** What a client is told about its rate limit: the `rateLimit` block and the headers. */
export interface RateReport {
  info: RateLimitInfo;
  headers: Record<string, string | number>;
}

/**
 * `retryAfterSec` is a hint only where waiting helps (docs/api.md, "Answers"): the wait of the
 * refusal this run met (rate limit, budget, concurrency), else 0. The field stays on every
 * answer (the RateLimit schema requires it); a 400 with runs left says 0, not the window.
 */
export function rateReport(
  toolId: string,
  policy: ToolPolicy,
  rate: RateDecision,
  retryAfterSec = rate.allowed ? 0 : rate.retryAfterSec,
): RateReport {
  const resetSec = Math.ceil(rate.resetMs / 1000);
  return {
    info: {
      limit: policy.limit,
      burst: policy.burst,
      windowSec: policy.windowSec,
      remaining: rate.remaining,
      resetMs: rate.resetMs,
      retryAfterSec,
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
