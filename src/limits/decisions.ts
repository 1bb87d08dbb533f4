import type { ToolPolicy } from '../config/policy.js';
import { QUOTA_ENTRIES } from '../config/quota.js';
import type { ErrorCode, QuotaInfo, RateLimitInfo } from '../errors.js';
import { nearestEnd } from './calendar.js';

/** The rate limit's answer for one run, as the client is told it (src/limits/rate-report.ts). */
export interface RateDecision {
  allowed: boolean;
  /** Runs this client may still make in the window, the burst allowance included. */
  remaining: number;
  resetMs: number;
  retryAfterSec: number;
}

/** Why a run may not go, with when to retry. */
export interface Refusal {
  code: Extract<ErrorCode, 'RATE_LIMITED' | 'BUDGET_EXCEEDED' | 'CONCURRENCY_LIMIT'>;
  message: string;
  retryAfterSec: number;
  /** Which limit refused: `rateLimit.scope` of the answer. */
  scope: NonNullable<RateLimitInfo['scope']>;
  /** Of a cap (scope `concurrency`): the client's, fleet-wide, or the tool's on this instance. */
  cap?: 'client' | 'instance';
  quota?: QuotaInfo;
}

/**
 * The main counter goes on counting past `limit` (every attempt is an increment), so the
 * burst used in this window is what lies beyond `limit`.
 */
export function rateDecision(
  policy: Pick<ToolPolicy, 'limit' | 'burst'>,
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

export function rateSpent(toolId: string, policy: ToolPolicy, rate: RateDecision): Refusal {
  return {
    code: 'RATE_LIMITED',
    message: `rate limit of ${policy.limit} attempts (+${policy.burst} burst) per ${policy.windowSec} s for ${toolId} is spent`,
    retryAfterSec: rate.retryAfterSec,
    scope: 'rate',
  };
}

export function budgetSpent(policy: ToolPolicy, msLeft: number): Refusal {
  return {
    code: 'BUDGET_EXCEEDED',
    message: `compute budget of ${policy.computeBudgetMs} ms per ${policy.windowSec} s for this tool is spent`,
    retryAfterSec: Math.max(1, Math.ceil((msLeft > 0 ? msLeft : policy.windowSec * 1000) / 1000)),
    scope: 'budget',
  };
}

export function clientCap(policy: ToolPolicy): Refusal {
  return {
    code: 'CONCURRENCY_LIMIT',
    message: `at most ${policy.maxInFlightPerClient} runs of this tool may be in flight per client`,
    retryAfterSec: 1,
    scope: 'concurrency',
    cap: 'client',
  };
}

export function toolCap(toolId: string, policy: ToolPolicy): Refusal {
  return {
    code: 'CONCURRENCY_LIMIT',
    message: `${toolId} already has ${policy.maxInFlight} runs in flight on this instance`,
    retryAfterSec: 1,
    scope: 'concurrency',
    cap: 'instance',
  };
}

/**
 * A quota of worker ms with no room beside what the client's runs in flight reserve (docs/api.md,
 * "Quotas"): worker time is charged when a run ends, so each run in flight holds its timeout
 * until then. CONCURRENCY_LIMIT, as the cap is: the run waits its turn in the client's line
 * like one past the cap, and is refused when the wait ends, with `Retry-After` 1 (a run ending
 * makes room).
 */
export function quotaFull(
  quotas: readonly number[],
  entry: number,
  used: number,
  reservedMs: number,
  msLeft: number,
  now: number,
): Refusal {
  const spent = quotaSpent(quotas, entry, used, msLeft, now);
  const s = QUOTA_ENTRIES[entry]!;
  const whose = s.per === 'tool' ? 'of this tool for this client' : 'for this key over every tool';
  return {
    code: 'CONCURRENCY_LIMIT',
    message: `quota of ${quotas[entry]} ms of worker time per UTC ${s.window} ${whose}: ${used} ms used and ${reservedMs} ms reserved by runs in flight; retry when they end`,
    retryAfterSec: 1,
    scope: 'quota',
    quota: { ...spent.quota!, reservedMs },
  };
}

/**
 * A quota used up (docs/api.md, "Quotas"): RATE_LIMITED for runs, BUDGET_EXCEEDED for worker
 * time, with `scope: 'quota'` and `Retry-After` at the window's end (the next UTC midnight or
 * first of the month), so a client can tell "come back tomorrow" from "wait a second".
 */
export function quotaSpent(
  quotas: readonly number[],
  entry: number,
  used: number,
  msLeft: number,
  now: number,
): Refusal {
  const s = QUOTA_ENTRIES[entry]!;
  const limit = quotas[entry]!;
  const resetAt = new Date(nearestEnd(s.window, now + msLeft)).toISOString();
  const what = s.kind === 'runs' ? `${limit} run${limit === 1 ? '' : 's'}` : `${limit} ms of worker time`;
  const whose = s.per === 'tool' ? 'of this tool for this client' : 'for this key over every tool';
  return {
    code: s.kind === 'runs' ? 'RATE_LIMITED' : 'BUDGET_EXCEEDED',
    message: `quota of ${what} per UTC ${s.window} ${whose} is used up; it resets at ${resetAt}`,
    retryAfterSec: Math.max(1, Math.ceil(msLeft / 1000)),
    scope: 'quota',
    quota: { per: s.per, window: s.window, kind: s.kind, limit, used, resetAt },
  };
}
