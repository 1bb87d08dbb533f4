import { randomBytes } from 'node:crypto';
import type { ToolPolicy } from '../config/policy.js';
import { budgetKey, slotKey } from './keys.js';
import type { LimiterRedis } from './redis-client.js';
import type { AdmitReply, AdmitRequest, ReleaseRequest, TurnScripts } from './turn-scripts.js';

/** Why a run was not admitted, with when to retry. */
export type AdmitRefusal = {
  code: 'BUDGET_EXCEEDED' | 'CONCURRENCY_LIMIT';
  message: string;
  retryAfterSec: number;
};

/**
 * A run's lease on one of its client's concurrency slots; given back (and the run's worker
 * time charged) after the run. In Redis it expires on its own at its deadline, so a lease
 * whose release never arrives frees its slot without anyone's help.
 */
export interface AdmissionLease {
  readonly toolId: string;
  readonly client: string;
  /** Where the lease was taken, so it is given back to the same store. */
  readonly store: 'redis' | 'memory';
  /** The lease's id in Redis (unique per admission); '' in-process. */
  readonly id: string;
}

/** Releases that could not reach Redis, kept to give back once it answers again (bounded). */
const MAX_UNRELEASED = 10_000;

interface Window {
  used: number;
  resetAt: number;
}

/**
 * The client's compute budget (worker milliseconds per window and tool) and its cap on
 * runs in flight (docs/api.md, "Compute budget" and "Concurrency caps and waiting lines"). With Redis both are shared by every instance; the checks
 * of one event-loop turn go out as one script call, in the same pipeline as the turn's
 * rate-limit commands. Without Redis, or while it is away, they are counted in-process.
 */
export class Admission {
  private readonly budgets = new Map<string, Window>();
  private readonly inFlight = new Map<string, number>();
  /** Lease ids: this instance's random part and a counter, unique across the fleet. */
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private leases = 0;
  /** Leases whose release failed while Redis was away: given back when it answers again. */
  private unreleased: ReleaseRequest[] = [];
  /** Leases this instance holds in Redis, by tool (the slots-held metric). */
  readonly held = new Map<string, number>();

  constructor(
    private readonly redis: LimiterRedis | null,
    private readonly prefix: string,
    private readonly turn: TurnScripts | null,
    /** A lease's life unless released: the run's longest life in the hub. */
    readonly leaseMs: (policy: ToolPolicy) => number,
  ) {}

  /** A fresh lease id. */
  nextLeaseId(): string {
    this.leases = (this.leases + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.idPrefix}${this.leases.toString(36)}`;
  }

  async admit(toolId: string, client: string, policy: ToolPolicy): Promise<AdmissionLease | AdmitRefusal> {
    if (this.turn && this.redis?.usable()) {
      try {
        const request = this.request(toolId, client, policy);
        const reply = await this.turn.admit(request);
        return this.fromReply(toolId, client, policy, request.leaseId, reply);
      } catch (err) {
        this.redis.failed(`admission: ${(err as Error).message}`);
      }
    }
    return this.admitHere(toolId, client, policy);
  }

  /** What Redis is asked for this client's admission (the turn's check script builds its own). */
  private request(toolId: string, client: string, policy: ToolPolicy): AdmitRequest {
    return {
      budgetKey: this.budgetKey(toolId, client),
      slotKey: this.slotKey(toolId, client),
      budgetMs: policy.computeBudgetMs,
      maxInFlight: policy.maxInFlightPerClient,
      leaseMs: this.leaseMs(policy),
      leaseId: this.nextLeaseId(),
    };
  }

  /** Redis's answer to `request` as a lease or a refusal. */
  fromReply(
    toolId: string,
    client: string,
    policy: ToolPolicy,
    leaseId: string,
    [used, pttl, n]: AdmitReply,
  ): AdmissionLease | AdmitRefusal {
    if (used >= policy.computeBudgetMs) return budgetSpent(policy, pttl);
    if (n < 0) return concurrencyCap(policy);
    this.held.set(toolId, (this.held.get(toolId) ?? 0) + 1);
    if (this.unreleased.length) this.retryReleases();
    return { toolId, client, store: 'redis', id: leaseId };
  }

  /** Frees the slot and charges `workerMs` to the client's budget. Never throws. */
  async release(lease: AdmissionLease, policy: ToolPolicy, workerMs: number): Promise<void> {
    const charged = Math.ceil(workerMs);
    if (lease.store === 'redis' && this.turn && this.redis) {
      this.held.set(lease.toolId, (this.held.get(lease.toolId) ?? 1) - 1);
      const request: ReleaseRequest = {
        budgetKey: this.budgetKey(lease.toolId, lease.client),
        slotKey: this.slotKey(lease.toolId, lease.client),
        chargedMs: charged,
        windowMs: policy.windowSec * 1000,
        leaseId: lease.id,
      };
      const err = await this.turn.release(request);
      if (err) {
        // The charge goes to the in-process window; the lease is given back once Redis
        // answers again (or frees itself at its deadline, whichever comes first).
        this.redis.failed(`admission release: ${(err as Error).message}`);
        this.charge(lease.toolId, lease.client, policy, charged);
        if (this.unreleased.length < MAX_UNRELEASED) this.unreleased.push({ ...request, chargedMs: 0 });
      } else if (this.unreleased.length) this.retryReleases();
      return;
    }
    const key = `${lease.toolId}\0${lease.client}`;
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
    this.charge(lease.toolId, lease.client, policy, charged);
  }

  /** In-process admission: without Redis, while it is away, or after the turn's check failed. */
  admitHere(toolId: string, client: string, policy: ToolPolicy): AdmissionLease | AdmitRefusal {
    const key = `${toolId}\0${client}`;
    const window = this.window(key, policy);
    if (window.used >= policy.computeBudgetMs) return budgetSpent(policy, window.resetAt - Date.now());
    const n = this.inFlight.get(key) ?? 0;
    if (n >= policy.maxInFlightPerClient) return concurrencyCap(policy);
    this.inFlight.set(key, n + 1);
    return { toolId, client, store: 'memory', id: '' };
  }

  /** Gives back the leases whose release failed during an outage; those failing again wait for the next try. */
  private retryReleases(): void {
    const pending = this.unreleased;
    this.unreleased = [];
    for (const request of pending) {
      void this.turn!.release(request).then((err) => {
        if (err && this.unreleased.length < MAX_UNRELEASED) this.unreleased.push(request);
      });
    }
  }

  /** Releases waiting for Redis to answer again. */
  get unreleasedCount(): number {
    return this.unreleased.length;
  }

  private charge(toolId: string, client: string, policy: ToolPolicy, ms: number): void {
    if (ms > 0) this.window(`${toolId}\0${client}`, policy).used += ms;
  }

  private window(key: string, policy: ToolPolicy): Window {
    const now = Date.now();
    let w = this.budgets.get(key);
    if (!w || w.resetAt <= now) {
      w = { used: 0, resetAt: now + policy.windowSec * 1000 };
      this.budgets.set(key, w);
      if (this.budgets.size > 100_000) this.sweep(now);
    }
    return w;
  }

  /** Drops ended windows so the map cannot grow without bound. */
  private sweep(now: number): void {
    for (const [k, w] of this.budgets) if (w.resetAt <= now) this.budgets.delete(k);
  }

  private budgetKey(toolId: string, client: string): string {
    return budgetKey(this.prefix, toolId, client);
  }

  private slotKey(toolId: string, client: string): string {
    return slotKey(this.prefix, toolId, client);
  }
}

function budgetSpent(policy: ToolPolicy, msLeft: number): AdmitRefusal {
  return {
    code: 'BUDGET_EXCEEDED',
    message: `compute budget of ${policy.computeBudgetMs} ms per ${policy.windowSec} s for this tool is spent`,
    retryAfterSec: Math.max(1, Math.ceil((msLeft > 0 ? msLeft : policy.windowSec * 1000) / 1000)),
  };
}

function concurrencyCap(policy: ToolPolicy): AdmitRefusal {
  return {
    code: 'CONCURRENCY_LIMIT',
    message: `at most ${policy.maxInFlightPerClient} runs of this tool may be in flight per client`,
    retryAfterSec: 1,
  };
}
