import type { Tier } from '../auth/tiers.js';
import type { ToolPolicy } from '../config/policy.js';
import type { Quota } from '../config/quota.js';
import { dayEndOf, monthEndOf, nearestEnd } from './calendar.js';
import { rateDecision } from './decisions.js';
import type { Limits } from './limits.js';
import type { QuotaUsage, ToolUsage, Usage, UsageReply } from './usage.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);

/**
 * Quotas as they stand, from the last six of a usage read; a window not open yet (nothing
 * counted in it) ends where the calendar says.
 */
export function quotaUsage(quota: Quota, reply: UsageReply, now = Date.now()): QuotaUsage {
  const [, , , , , , , dr, dm, dayMs, mr, mm, monthMs] = reply;
  const of = (used: number, limit: number | undefined) => ({
    used,
    limit: limit ?? null,
    remaining: limit === undefined ? null : Math.max(0, limit - used),
  });
  const window = (
    w: 'day' | 'month',
    runs: number,
    ms: number,
    left: number,
    end: number,
    r?: number,
    c?: number,
  ) => {
    const endsAt = left > 0 ? nearestEnd(w, now + left) : end;
    return {
      runs: of(runs, r),
      computeMs: of(ms, c),
      resetSec: seconds(endsAt - now),
      resetAt: new Date(endsAt).toISOString(),
    };
  };
  return {
    day: window('day', dr, dm, dayMs, dayEndOf(now), quota.runsPerDay, quota.computeMsPerDay),
    month: window('month', mr, mm, monthMs, monthEndOf(now), quota.runsPerMonth, quota.computeMsPerMonth),
  };
}

/** One tool's limits as they stand, from the store's read and the caller's policy. */
export function toolUsage(policy: ToolPolicy, reply: UsageReply): ToolUsage {
  const [used, rateMs, , , budgetUsed, budgetMs, leases] = reply;
  const burst = Math.max(policy.burst, 0);
  return {
    rate: {
      limit: policy.limit,
      burst,
      windowSec: policy.windowSec,
      used,
      // What the RateLimit header of the next answer would say before its own count.
      remaining: rateDecision({ limit: policy.limit, burst }, used, rateMs, true).remaining,
      resetSec: seconds(rateMs),
    },
    budget: {
      limitMs: policy.computeBudgetMs,
      windowSec: policy.windowSec,
      usedMs: budgetUsed,
      remainingMs: Math.max(0, policy.computeBudgetMs - budgetUsed),
      resetSec: seconds(budgetMs),
    },
    concurrency: { limit: policy.maxInFlightPerClient, inFlight: leases },
    ...(policy.quota ? { quota: quotaUsage(policy.quota, reply) } : {}),
  };
}

/**
 * The caller's usage of every tool (GET /api/usage, MCP `toolhub://usage`): each tool's
 * counters read at once (on a single Redis, one write and one reply for all of them).
 */
export async function usageReport(
  limits: Limits,
  client: string,
  tier: Tier | undefined,
  policies: readonly (readonly [string, ToolPolicy])[],
): Promise<Usage> {
  const name = tier?.name ?? '';
  const [keyRead, ...reads] = await Promise.all([
    tier?.quota ? limits.usage(null, client, '') : null,
    ...policies.map(([toolId]) => limits.usage(toolId, client, name)),
  ]);
  const tools: Record<string, ToolUsage> = {};
  const total = { runs: 0, computeMs: 0, inFlight: 0 };
  for (const [i, [toolId, policy]] of policies.entries()) {
    const usage = toolUsage(policy, reads[i]!.reply);
    tools[toolId] = usage;
    total.runs += usage.rate.used;
    total.computeMs += usage.budget.usedMs;
    total.inFlight += usage.concurrency.inFlight;
  }
  const store = reads.every((r) => r!.store === 'redis') ? 'redis' : 'memory';
  const quota = keyRead && tier?.quota ? { quota: quotaUsage(tier.quota, keyRead.reply) } : {};
  return { ok: true, client, tier: name || null, store, tools, total, ...quota };
}
