import type { Tier } from '../auth/tiers.js';
import type { ToolPolicy } from '../config/policy.js';
import { quotaNumbers } from '../config/quota.js';
import type { StorePolicy } from './store.js';

const NO_TIER: Tier = { name: '', multiplier: 1 };

/**
 * A tool policy as the limit store reads it, under a tier's counters and quota: made once per
 * policy object and tier object (a keys file reload makes new tiers), so the turn's script
 * call that names it sends it once.
 */
export class StorePolicies {
  private readonly made = new WeakMap<ToolPolicy, WeakMap<Tier, StorePolicy>>();

  /** `leaseMs`: a lease's life unless given back, the longest a run can live in the hub (src/app.ts). */
  constructor(private readonly leaseMs: (policy: ToolPolicy) => number) {}

  get(policy: ToolPolicy, tier: Tier = NO_TIER): StorePolicy {
    let byTier = this.made.get(policy);
    if (!byTier) {
      byTier = new WeakMap();
      this.made.set(policy, byTier);
    }
    let sp = byTier.get(tier);
    if (!sp) {
      sp = {
        tier: tier.name,
        limit: policy.limit,
        burst: Math.max(policy.burst, 0),
        windowMs: policy.windowSec * 1000,
        budgetMs: policy.computeBudgetMs,
        cap: policy.maxInFlightPerClient,
        leaseMs: this.leaseMs(policy),
        reserveMs: policy.timeoutMs,
        quotas: quotaNumbers(policy.quota, tier.quota),
      };
      byTier.set(tier, sp);
    }
    return sp;
  }
}
