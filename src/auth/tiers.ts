import type { ToolPolicy } from '../config/policy.js';

/** A consumer's tier: its name (metrics, Redis keys) and how much of each policy it gets. */
export interface Tier {
  name: string;
  multiplier: number;
}

/**
 * A tool's policy under a tier: `limit`, `burst`, `computeBudgetMs` and the per-client cap
 * multiplied (rounded, at least 1; a burst of 0 stays 0). Everything else stays the
 * tool's: the same deadline, input size and instance cap for everyone.
 */
export function tierPolicy(policy: ToolPolicy, tier: Tier): ToolPolicy {
  const times = (n: number) => Math.max(1, Math.round(n * tier.multiplier));
  return {
    ...policy,
    limit: times(policy.limit),
    burst: policy.burst === 0 ? 0 : times(policy.burst),
    computeBudgetMs: times(policy.computeBudgetMs),
    maxInFlightPerClient: times(policy.maxInFlightPerClient),
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
