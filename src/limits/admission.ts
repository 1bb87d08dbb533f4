import type { ToolPolicy } from '../config/policy.js';
import { budgetKey, slotKey } from './keys.js';
import type { AdmitReply, AdmitRequest, RedisBatch } from './redis-batch.js';
import type { LimiterRedis } from './redis-client.js';

/** Why a run was not admitted, with when to retry. */
export type AdmitRefusal = {
  code: 'BUDGET_EXCEEDED' | 'CONCURRENCY_LIMIT';
  message: string;
  retryAfterSec: number;
};

/** A per-client concurrency slot; released (and the run's worker time charged) after the run. */
export interface AdmissionLease {
  readonly toolId: string;
  readonly client: string;
  /** Where the slot was taken, so it is given back to the same store. */
  readonly store: 'redis' | 'memory';
}

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

  constructor(
    private readonly redis: LimiterRedis | null,
    private readonly prefix: string,
    private readonly batch: RedisBatch | null,
  ) {}

  async admit(toolId: string, client: string, policy: ToolPolicy): Promise<AdmissionLease | AdmitRefusal> {
    if (this.batch && this.redis?.usable()) {
      try {
        return this.fromReply(
          toolId,
          client,
          policy,
          await this.batch.admit(this.request(toolId, client, policy)),
        );
      } catch (err) {
        this.redis.failed(`admission: ${(err as Error).message}`);
      }
    }
    return this.admitHere(toolId, client, policy);
  }

  /** What Redis is asked for this client's admission (the batched check builds its own). */
  private request(toolId: string, client: string, policy: ToolPolicy): AdmitRequest {
    return {
      budgetKey: this.budgetKey(toolId, client),
      slotKey: this.slotKey(toolId, client),
      budgetMs: policy.computeBudgetMs,
      maxInFlight: policy.maxInFlightPerClient,
      slotTtlMs: slotTtlMs(policy),
    };
  }

  /** Redis's answer to `request` as a lease or a refusal. */
  fromReply(
    toolId: string,
    client: string,
    policy: ToolPolicy,
    [used, pttl, n]: AdmitReply,
  ): AdmissionLease | AdmitRefusal {
    if (used >= policy.computeBudgetMs) return budgetSpent(policy, pttl);
    if (n < 0) return concurrencyCap(policy);
    return { toolId, client, store: 'redis' };
  }

  /** Frees the slot and charges `workerMs` to the client's budget. Never throws. */
  async release(lease: AdmissionLease, policy: ToolPolicy, workerMs: number): Promise<void> {
    const charged = Math.ceil(workerMs);
    if (lease.store === 'redis' && this.batch && this.redis) {
      const err = await this.batch.release({
        budgetKey: this.budgetKey(lease.toolId, lease.client),
        slotKey: this.slotKey(lease.toolId, lease.client),
        chargedMs: charged,
        windowMs: policy.windowSec * 1000,
      });
      if (err) {
        // The slot expires by its TTL; the charge goes to the in-process window.
        this.redis.failed(`admission release: ${(err as Error).message}`);
        this.charge(lease.toolId, lease.client, policy, charged);
      }
      return;
    }
    const key = `${lease.toolId}\0${lease.client}`;
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
    this.charge(lease.toolId, lease.client, policy, charged);
  }

  /** In-process admission: without Redis, while it is away, or after a batched check failed. */
  admitHere(toolId: string, client: string, policy: ToolPolicy): AdmissionLease | AdmitRefusal {
    const key = `${toolId}\0${client}`;
    const window = this.window(key, policy);
    if (window.used >= policy.computeBudgetMs) return budgetSpent(policy, window.resetAt - Date.now());
    const n = this.inFlight.get(key) ?? 0;
    if (n >= policy.maxInFlightPerClient) return concurrencyCap(policy);
    this.inFlight.set(key, n + 1);
    return { toolId, client, store: 'memory' };
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

/** A slot outlives its run only if an instance dies mid-run; then it expires. */
export function slotTtlMs(policy: ToolPolicy): number {
  return policy.timeoutMs * 4 + 30_000;
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
