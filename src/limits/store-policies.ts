import type { ToolPolicy } from '../config/policy.js';
import type { StorePolicy } from './store.js';

/**
 * A tool policy as the limit store reads it, under a tier's counters: made once per policy
 * object and tier, so the turn's script call that names it sends it once.
 */
export class StorePolicies {
  private readonly made = new WeakMap<ToolPolicy, Map<string, StorePolicy>>();

  /** `leaseMs`: a lease's life unless given back, the longest a run can live in the hub (src/app.ts). */
  constructor(private readonly leaseMs: (policy: ToolPolicy) => number) {}

  get(policy: ToolPolicy, tier: string): StorePolicy {
    let byTier = this.made.get(policy);
    if (!byTier) {
      byTier = new Map();
      this.made.set(policy, byTier);
    }
    let sp = byTier.get(tier);
    if (!sp) {
      sp = {
        tier,
        limit: policy.limit,
        burst: Math.max(policy.burst, 0),
        windowMs: policy.windowSec * 1000,
        budgetMs: policy.computeBudgetMs,
        cap: policy.maxInFlightPerClient,
        leaseMs: this.leaseMs(policy),
      };
      byTier.set(tier, sp);
    }
    return sp;
  }
}
