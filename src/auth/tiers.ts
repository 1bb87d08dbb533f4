import type { ToolPolicy } from '../config/policy.js';
import { type Quota, scaleQuota } from '../config/quota.js';

/**
 * A consumer's tier: its name (metrics, Redis keys), how much of each policy it gets, and its
 * quota per key over every tool. One object per tier and keys file: a reload makes new ones.
 */
export interface Tier {
  name: string;
  multiplier: number;
  quota?: Quota;
}

/**
 * A tool's policy under a tier: `limit`, `burst`, `computeBudgetMs`, the per-client cap and
 * the tool's quota multiplied (rounded, at least 1; a burst or quota of 0 stays 0).
 * Everything else stays the tool's: the same deadline, input size and instance cap for everyone.
 */
export function tierPolicy(policy: ToolPolicy, tier: Tier): ToolPolicy {
  const times = (n: number) => Math.max(1, Math.round(n * tier.multiplier));
  const quota = scaleQuota(policy.quota, tier.multiplier);
  return {
    ...policy,
    limit: times(policy.limit),
    burst: policy.burst === 0 ? 0 : times(policy.burst),
    computeBudgetMs: times(policy.computeBudgetMs),
    maxInFlightPerClient: times(policy.maxInFlightPerClient),
    ...(quota ? { quota } : {}),
  };
}

/** Tier policies are derived once per tool and tier (runs look them up on the hot path). */
export class TierPolicies {
  private readonly cache = new Map<string, ToolPolicy>();

  constructor(private readonly base: Map<string, ToolPolicy>) {}

  get(toolId: string, tier: Tier | undefined): ToolPolicy {
    const policy = this.base.get(toolId)!;
    if (!tier || tier.multiplier === 1) return policy;
    const key = `${toolId}\0${tier.name}\0${tier.multiplier}`;
    let scaled = this.cache.get(key);
    if (!scaled) {
      scaled = tierPolicy(policy, tier);
      this.cache.set(key, scaled);
    }
    return scaled;
  }
}
