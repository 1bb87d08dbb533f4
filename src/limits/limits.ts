import type { ToolPolicy } from '../config/policy.js';
import type { ErrorCode } from '../errors.js';
import { Admission, type AdmissionLease, type AdmitRefusal } from './admission.js';
import { ToolInFlight } from './in-flight.js';
import { rateName } from './keys.js';
import { type RateDecision, RateLimits, rateDecision } from './rate-limit.js';
import type { LimiterRedis } from './redis-client.js';
import { endOfTurn, TurnScripts } from './turn-scripts.js';
import { WaitLines } from './wait-lines.js';

/** What a run holds while it runs: the client's slot (and budget), and a slot of its tool here. */
export interface Lease {
  readonly admission: AdmissionLease;
  readonly policy: ToolPolicy;
}

/** Why a run may not go, with when to retry. */
export interface Refusal {
  code: Extract<ErrorCode, 'RATE_LIMITED' | 'BUDGET_EXCEEDED' | 'CONCURRENCY_LIMIT'>;
  message: string;
  retryAfterSec: number;
}

/** The decision of `check`: the rate limiter's answer always, and a lease or a refusal. */
export type Check =
  | { ok: true; rate: RateDecision; lease: Lease | null }
  | { ok: false; rate: RateDecision; refusal: Refusal };

export interface CheckOptions {
  /** The answer comes from the cache: the rate limit counts it, nothing else is taken. */
  cached: boolean;
  /** The caller's tier ('' without one): its numbers are in `policy`, its counters its own. */
  tier: string;
}

/** The first step of a check: the rate limiter's answer, and the admission's unless cached or refused. */
interface FirstPass {
  rate: RateDecision;
  admitted: AdmissionLease | AdmitRefusal | null;
}

/**
 * Every limit a run passes before the pool, in one place: rate limit, compute budget,
 * per-client cap (shared through Redis when there is one) and the tool's cap on this
 * instance. It owns their order: with Redis, the checks of every request of an event-loop
 * turn leave together after the turn's I/O (src/limits/turn-scripts.ts), as one script call
 * that counts the rate limit and takes the admission. On a Redis Cluster, whose script
 * calls name one hash slot, the rate limit goes through rate-limiter-flexible and the
 * admission pairs alone. Runs past a cap wait their turn in a line
 * (src/limits/wait-lines.ts), up to `capWaitMs`.
 */
export class Limits {
  readonly rate: RateLimits;
  private readonly admission: Admission;
  /** The script calls of each event-loop turn, when Redis is configured. */
  private readonly turn: TurnScripts | null;
  private readonly inFlight = new ToolInFlight();
  private readonly lines = new WaitLines();

  constructor(
    readonly redis: LimiterRedis | null,
    prefix: string,
    private readonly capWaitMs: number,
    /** A lease's life unless released: the longest a run can live in the hub (src/app.ts). */
    leaseMs: (policy: ToolPolicy) => number = (policy) => capWaitMs + policy.timeoutMs * 4 + 30_000,
  ) {
    this.rate = new RateLimits(redis, prefix);
    this.turn = redis ? new TurnScripts(redis, prefix) : null;
    this.admission = new Admission(redis, prefix, this.turn, leaseMs);
  }

  /** Leases this instance holds on clients' slots in Redis, by tool, and releases waiting for Redis. */
  leases(): { held: ReadonlyMap<string, number>; unreleased: number } {
    return { held: this.admission.held, unreleased: this.admission.unreleasedCount };
  }

  async check(toolId: string, client: string, policy: ToolPolicy, opts: CheckOptions): Promise<Check> {
    const { rate, admitted } = await this.firstPass(toolId, client, policy, opts);
    if (!rate.allowed) {
      if (admitted && isLease(admitted)) await this.admission.release(admitted, policy, 0);
      const message = `rate limit of ${policy.limit} runs (+${policy.burst} burst) per ${policy.windowSec} s for ${toolId} is spent`;
      return {
        ok: false,
        rate,
        refusal: { code: 'RATE_LIMITED', message, retryAfterSec: rate.retryAfterSec },
      };
    }
    if (admitted === null) return { ok: true, rate, lease: null };
    const waitUntil = Date.now() + this.capWaitMs;
    const client_ = await this.clientSlot(toolId, client, policy, admitted, waitUntil);
    if (!isLease(client_)) return { ok: false, rate, refusal: client_ };
    const lease: Lease = { admission: client_, policy };
    if (!(await this.toolSlot(toolId, policy, waitUntil))) {
      await this.releaseClient(lease, 0);
      const message = `${toolId} already has ${policy.maxInFlight} runs in flight on this instance`;
      return { ok: false, rate, refusal: { code: 'CONCURRENCY_LIMIT', message, retryAfterSec: 1 } };
    }
    return { ok: true, rate, lease };
  }

  private async firstPass(
    toolId: string,
    client: string,
    policy: ToolPolicy,
    opts: CheckOptions,
  ): Promise<FirstPass> {
    if (this.rate.shared) {
      await endOfTurn();
      if (this.turn && !this.turn.cluster && this.rate.shared) {
        try {
          return await this.checkTogether(this.turn, toolId, client, policy, opts);
        } catch (err) {
          // Served in-process, as the library's insurance store would serve its own call.
          this.redis?.failed(`limits: ${(err as Error).message}`);
          const rate = await this.rate.consumeHere(toolId, client, policy, opts.tier);
          const admitted =
            opts.cached || !rate.allowed ? null : this.admission.admitHere(toolId, client, policy);
          return { rate, admitted };
        }
      }
    }
    const admitting = opts.cached ? null : this.admission.admit(toolId, client, policy);
    const [rate, admitted] = await Promise.all([
      this.rate.consume(toolId, client, policy, opts.tier),
      admitting,
    ]);
    return { rate, admitted };
  }

  /** Rate limit and admission in the turn's one script call (src/limits/scripts.ts, CHECK_LUA). */
  private async checkTogether(
    turn: TurnScripts,
    toolId: string,
    client: string,
    policy: ToolPolicy,
    opts: CheckOptions,
  ): Promise<FirstPass> {
    const leaseId = this.admission.nextLeaseId();
    const [consumed, msBeforeNext, allowed, ...admission] = await turn.check({
      name: rateName(toolId, opts.tier),
      toolId,
      client,
      policy,
      leaseMs: this.admission.leaseMs(policy),
      leaseId,
      admit: !opts.cached,
    });
    const rate = rateDecision(policy, consumed, msBeforeNext, allowed === 1);
    if (!rate.allowed || opts.cached) return { rate, admitted: null };
    return { rate, admitted: this.admission.fromReply(toolId, client, policy, leaseId, admission) };
  }

  /**
   * Frees both slots and charges `workerMs` to the client's budget. Awaited before the
   * answer goes out, so a client that calls another instance next finds its slot freed and
   * its time charged. Never throws (a release that fails is charged in-process).
   */
  async release(lease: Lease, workerMs: number): Promise<void> {
    this.inFlight.release(lease.admission.toolId);
    this.lines.notify(lease.admission.toolId);
    await this.releaseClient(lease, workerMs);
  }

  private async releaseClient(lease: Lease, workerMs: number): Promise<void> {
    const { toolId, client } = lease.admission;
    await this.admission.release(lease.admission, lease.policy, workerMs);
    this.lines.notify(lineOf(toolId, client));
  }

  /** Past the per-client cap: wait in the client's own line for one of its runs to end. */
  private async clientSlot(
    toolId: string,
    client: string,
    policy: ToolPolicy,
    admitted: AdmissionLease | AdmitRefusal,
    waitUntil: number,
  ): Promise<AdmissionLease | AdmitRefusal> {
    if (isLease(admitted) || admitted.code !== 'CONCURRENCY_LIMIT') return admitted;
    const got = await this.lines.acquire(lineOf(toolId, client), waitUntil, async () => {
      const again = await this.admission.admit(toolId, client, policy);
      // A slot ends the wait, and so does a spent budget; the cap again means wait on.
      return isLease(again) || again.code === 'BUDGET_EXCEEDED' ? again : null;
    });
    return got ?? admitted;
  }

  /** The tool's cap on this instance: past it, wait in the tool's line. */
  private async toolSlot(toolId: string, policy: ToolPolicy, waitUntil: number): Promise<boolean> {
    const take = () => (this.inFlight.tryAcquire(toolId, policy.maxInFlight) ? true : null);
    return take() ?? (await this.lines.acquire(toolId, waitUntil, async () => take())) ?? false;
  }
}

function isLease(x: AdmissionLease | AdmitRefusal): x is AdmissionLease {
  return 'store' in x;
}

/** A client's line for a tool (a tool's own line is keyed by its id alone). */
function lineOf(toolId: string, client: string): string {
  return `${toolId}\0${client}`;
}
