import type { Tier } from '../auth/tiers.js';
import type { ToolPolicy } from '../config/policy.js';
import { quotaBits } from '../config/quota.js';
import {
  budgetSpent,
  clientCap,
  quotaFull,
  quotaSpent,
  type RateDecision,
  type Refusal,
} from './decisions.js';
import type { DecideReply, StorePolicy } from './store.js';

/**
 * The shapes of a limits check (src/limits/limits.ts) and the pure readings of a store's
 * decision: what refused, the lease it admits, the most used quota.
 */

/** What a run holds while it runs: its lease on one of its client's slots, and a slot of its tool here. */
export interface Lease {
  readonly toolId: string;
  readonly client: string;
  readonly key: string;
  readonly id: string;
  /** Where the lease was taken, so it is given back to the same store. */
  readonly store: 'redis' | 'memory';
  readonly policy: ToolPolicy;
  /** The policy as the store read it (the insurance's share of it follows from it). */
  readonly storePolicy: StorePolicy;
  readonly quotaKey: string;
  /** The quotas its worker time counts toward (ReleaseRequest.quotas). */
  readonly quotas: number;
}

/** The most used of the quotas that apply to an admitted run, after it (the operator's gauge). */
export interface QuotaUse {
  entry: number;
  used: number;
  limit: number;
  msLeft: number;
}

/** The decision of `check`: the rate limiter's answer always, and a lease or a refusal. */
export type Check =
  | { ok: true; rate: RateDecision; lease: Lease | null; quota?: QuotaUse }
  | { ok: false; rate: RateDecision; refusal: Refusal };

export interface CheckOptions {
  /** The answer comes from the cache: the rate limit counts it, nothing else is taken. */
  cached: boolean;
  /** The caller's tier: its numbers are in `policy`, its counters and its quota its own. */
  tier: Tier | undefined;
}

export type Store = 'redis' | 'memory';
export type Decided = { reply: DecideReply; store: Store; leaseId: string };

/** Who and what a run's admission is for. */
export interface Admission {
  toolId: string;
  client: string;
  key: string;
  quotaKey: string;
  policy: ToolPolicy;
  sp: StorePolicy;
}

export function isLease(x: Lease | Refusal): x is Lease {
  return 'store' in x;
}

/** A client's line for a tool (a tool's own line is keyed by its id alone). */
export function lineOf(toolId: string, client: string): string {
  return `${toolId}\0${client}`;
}

/**
 * What refused the admission part of a decision, in the order the store checks: quota (spent,
 * or of ms full with runs in flight), budget, cap; null when it admitted.
 */
export function refusalOf(at: Admission, reply: DecideReply): Refusal | null {
  const [, , , used, pttl, n, qs, entry, qused, qms] = reply;
  if (qs === 2) return quotaSpent(at.sp.quotas, entry, qused, qms, Date.now());
  if (qs === 3) {
    const reserved = (reply as number[])[entry < 4 ? 18 : 19]!;
    return quotaFull(at.sp.quotas, entry, qused, reserved, qms, Date.now());
  }
  if (used >= at.policy.computeBudgetMs) return budgetSpent(at.policy, pttl);
  if (n < 0) return clientCap(at.policy);
  return null;
}

/** The lease a decision admitted. */
export function leaseOf(at: Admission, d: Decided): Lease {
  return {
    toolId: at.toolId,
    client: at.client,
    key: at.key,
    quotaKey: at.quotaKey,
    id: d.leaseId,
    store: d.store,
    policy: at.policy,
    storePolicy: at.sp,
    quotas: quotaBits(at.sp.quotas),
  };
}

/** The most used of the quotas that apply, after an admission; none when no quota applies. */
export function quotaUseOf(sp: StorePolicy, reply: DecideReply): QuotaUse | undefined {
  const [, , , , , , qs, entry, used, msLeft] = reply;
  return qs === 1 ? { entry, used, limit: sp.quotas[entry]!, msLeft } : undefined;
}
