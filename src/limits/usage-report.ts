import type { ToolPolicy } from '../config/policy.js';
import { rateDecision } from './decisions.js';
import type { Limits } from './limits.js';
import type { ToolUsage, Usage, UsageReply } from './usage.js';

const seconds = (ms: number) => Math.ceil(ms / 1000);

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
  };
}

/**
 * The caller's usage of every tool (GET /api/usage, MCP `toolhub://usage`): each tool's
 * counters read at once (on a single Redis, one write and one reply for all of them).
 */
export async function usageReport(
  limits: Limits,
  client: string,
  tier: string,
  policies: readonly (readonly [string, ToolPolicy])[],
): Promise<Usage> {
  const reads = await Promise.all(policies.map(([toolId]) => limits.usage(toolId, client, tier)));
  const tools: Record<string, ToolUsage> = {};
  const total = { runs: 0, computeMs: 0, inFlight: 0 };
  for (const [i, [toolId, policy]] of policies.entries()) {
    const usage = toolUsage(policy, reads[i]!.reply);
    tools[toolId] = usage;
    total.runs += usage.rate.used;
    total.computeMs += usage.budget.usedMs;
    total.inFlight += usage.concurrency.inFlight;
  }
  const store = reads.every((r) => r.store === 'redis') ? 'redis' : 'memory';
  return { ok: true, client, tier: tier || null, store, tools, total };
}
