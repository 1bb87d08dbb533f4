import type { Tier } from '../auth/tiers.js';
import type { ToolPolicy } from '../config/policy.js';
import { QUOTA_ENTRIES, quotaNumbers } from '../config/quota.js';
import type { RateLimitInfo } from '../errors.js';
import { monthEndOf } from './calendar.js';
import type { Check, QuotaUse } from './check.js';
import type { Refusal } from './decisions.js';
import { budgetName, capName, instanceCapName, quotaName } from './limit-names.js';
import {
  type LimitItem,
  limitField,
  mergedFields,
  type PolicyItem,
  policyField,
  quotaPolicy,
  ratePolicy,
  secondsOf,
} from './ratelimit-fields.js';

/**
 * What a client is told about the limits of a run: the `rateLimit` block, the headers, and
 * the items of the IETF fields (a batch request's answer merges its runs' items).
 */
export interface RateReport {
  info: RateLimitInfo;
  headers: Record<string, string | number>;
  /** Every limit that applies to the run (RateLimit-Policy's items). */
  policyItems: readonly PolicyItem[];
  /** The limits reported (RateLimit's items): the one that refused first, the rate limit, the most used quota. */
  limitItems: readonly LimitItem[];
}

/**
 * The report of a limits check (docs/api.md, "Limit names and the RateLimit headers").
 * `retryAfterSec` is a hint only where waiting helps (docs/api.md, "Answers"): the wait of
 * the refusal this run met, else 0; the field stays on every answer (the RateLimit schema
 * requires it). A refusal names its limit in `limitName` and first in RateLimit, with
 * nothing left (`r=0`) and, but for a cap, the seconds to its window's end.
 */
export function rateReport(
  toolId: string,
  policy: ToolPolicy,
  tier: Tier | undefined,
  check: Check,
): RateReport {
  const { rate } = check;
  const resetSec = secondsOf(rate.resetMs);
  const own: LimitItem = { name: toolId, r: rate.remaining, t: resetSec };
  const info: RateLimitInfo = {
    limit: policy.limit,
    burst: policy.burst,
    windowSec: policy.windowSec,
    remaining: rate.remaining,
    resetMs: rate.resetMs,
    retryAfterSec: 0,
  };
  let limits: LimitItem[];
  if (check.ok) {
    limits = check.quota ? [own, quotaLeft(toolId, check.quota)] : [own];
  } else {
    const refused = refusedLimit(toolId, check.refusal);
    const { retryAfterSec, scope, quota } = check.refusal;
    Object.assign(info, { retryAfterSec, scope, limitName: refused.name }, quota ? { quota } : {});
    limits = refused.name === toolId ? [own] : [refused, own];
  }
  const listed = runPolicyItems(toolId, policy, tier);
  return {
    info,
    headers: {
      'RateLimit-Policy': listed.field,
      RateLimit: limitField(limits),
      // The widely read older form: the rate limit alone (docs/api.md).
      'X-RateLimit-Limit': policy.limit + policy.burst,
      'X-RateLimit-Remaining': rate.remaining,
      'X-RateLimit-Reset': resetSec,
    },
    policyItems: listed.items,
    limitItems: limits,
  };
}

/** The limit that refused, with nothing left: a quota or the budget until its window ends, a cap until a run ends. */
function refusedLimit(toolId: string, refusal: Refusal): LimitItem {
  switch (refusal.scope) {
    case 'rate':
      return { name: toolId, r: 0 };
    case 'quota':
      return { name: quotaName(toolId, refusal.quota!), r: 0, t: refusal.retryAfterSec };
    case 'budget':
      return { name: budgetName(toolId), r: 0, t: refusal.retryAfterSec };
    case 'concurrency':
      return { name: refusal.cap === 'instance' ? instanceCapName(toolId) : capName(toolId), r: 0 };
  }
}

/** The most used quota after an admission, as the store reports it. */
function quotaLeft(toolId: string, q: QuotaUse): LimitItem {
  return {
    name: quotaName(toolId, QUOTA_ENTRIES[q.entry]!),
    r: Math.max(0, q.limit - q.used),
    t: secondsOf(q.msLeft),
  };
}

interface PolicyList {
  toolId: string;
  items: PolicyItem[];
  field: string;
  /** The month's length is in it: made again when the month ends. */
  until: number;
}

const NO_TIER = {};
const made = new WeakMap<ToolPolicy, WeakMap<object, PolicyList>>();

/**
 * Every limit that applies to a run of `toolId` under `policy` and `tier`: the rate limit,
 * the budget, the two caps, then each quota of the tool and of the key. Made once per policy
 * and tier object (a keys file reload makes new tiers) and month, off the hot path.
 */
function runPolicyItems(
  toolId: string,
  policy: ToolPolicy,
  tier: Tier | undefined,
  now = Date.now(),
): PolicyList {
  let byTier = made.get(policy);
  if (!byTier) {
    byTier = new WeakMap();
    made.set(policy, byTier);
  }
  const seen = byTier.get(tier ?? NO_TIER);
  if (seen && seen.toolId === toolId && now < seen.until) return seen;
  const items: PolicyItem[] = [
    ratePolicy(toolId, policy.limit, policy.burst, policy.windowSec),
    { name: budgetName(toolId), q: policy.computeBudgetMs, qu: 'worker-ms', w: policy.windowSec },
    { name: capName(toolId), q: policy.maxInFlightPerClient, qu: 'concurrent-requests' },
    { name: instanceCapName(toolId), q: policy.maxInFlight, qu: 'concurrent-requests' },
  ];
  for (const [j, limit] of quotaNumbers(policy.quota, tier?.quota).entries()) {
    const e = QUOTA_ENTRIES[j]!;
    if (limit >= 0) items.push(quotaPolicy(quotaName(toolId, e), e.window, e.kind, limit, now));
  }
  const list = { toolId, items, field: policyField(items), until: monthEndOf(now) };
  byTier.set(tier ?? NO_TIER, list);
  return list;
}

/**
 * The report of a pipeline's answer (docs/api.md, "Pipelines"): `rateLimit` is the block of
 * the step with the fewest left, with `runs` (the runs the pipeline spent); the RateLimit
 * fields list every limit its steps met, each with the fewest units left, as a batch
 * request's answer does.
 */
export function rateReportOfSteps(reports: readonly RateReport[], runs: number): RateReport {
  const least = reports.reduce((a, b) => (b.info.remaining <= a.info.remaining ? b : a));
  return {
    info: { ...least.info, runs },
    headers: { ...least.headers, ...mergedFields(reports) },
    policyItems: reports.flatMap((r) => r.policyItems),
    limitItems: reports.flatMap((r) => r.limitItems),
  };
}
