import type { ToolPolicy } from '../config/policy.js';
import { quotaBits } from '../config/quota.js';
import { inSpan } from '../telemetry/spans.js';
import {
  type Admission,
  type Check,
  type CheckOptions,
  type Decided,
  isLease,
  type Lease,
  leaseOf,
  lineOf,
  quotaUseOf,
  refusalOf,
  type Store,
} from './check.js';
import { type RateDecision, type Refusal, rateDecision, rateSpent, toolCap } from './decisions.js';
import { ToolInFlight } from './in-flight.js';
import { Insurance } from './insurance.js';
import { LastKnown } from './last-known.js';
import { LeaseBook } from './lease-book.js';
import { MemoryStore } from './memory-store.js';
import type { LimiterRedis } from './redis-client.js';
import { endOfTurn, RedisStore } from './redis-store.js';
import { LEASE_TTL_MS, LeaseRenewals } from './renewals.js';
import {
  type DecideRequest,
  limitKey,
  messageKey,
  quotaKey,
  type ReleaseRequest,
  type StorePolicy,
  type UsageReply,
} from './store.js';
import { StorePolicies } from './store-policies.js';
import { WaitLines } from './wait-lines.js';

export type { Check, CheckOptions, Lease, QuotaUse } from './check.js';
export type { RateDecision, Refusal } from './decisions.js';

/**
 * Every limit a run passes before the pool, in one place: rate limit, compute budget and
 * the client's cap, decided in one step by the limit store (src/limits/store.ts: Redis,
 * shared by every instance, when configured; in-process otherwise and while Redis is away),
 * then the tool's cap on this instance. Runs past a cap wait their turn in a line
 * (src/limits/wait-lines.ts), up to `capWaitMs`.
 */
export class Limits {
  private readonly memory = new MemoryStore();
  private readonly known = new LastKnown();
  /** With Redis: the in-process store while it is away, and what it owes Redis after. */
  private readonly insurance: Insurance | null;
  /** The settlement of an outage on its way to Redis (one at a time). */
  private settling: Promise<void> | null = null;
  /** The leases of runs in flight that may outlive their life from a renewal: renewed while they run. */
  private readonly renewals: LeaseRenewals;
  private readonly redisStore: RedisStore | null;
  private readonly book = new LeaseBook();
  private readonly toolRuns = new ToolInFlight();
  private readonly lines = new WaitLines();
  private readonly storePolicies: StorePolicies;

  constructor(
    readonly redis: LimiterRedis | null,
    private readonly prefix: string,
    private readonly capWaitMs: number,
    /** A lease's life unless given back: the longest a run can live in the hub (src/app.ts). */
    private readonly leaseMs: (policy: ToolPolicy) => number,
    /** The box's API processes (HUB_PROCESSES): while Redis is away, each admits its share. */
    processes = 1,
    /** A lease's life from its last renewal (src/limits/renewals.ts). */
    leaseTtlMs = LEASE_TTL_MS,
  ) {
    this.renewals = new LeaseRenewals(leaseTtlMs, (leases) => this.renew(leases));
    const insurance = redis ? new Insurance(this.memory, this.known, processes) : null;
    this.insurance = insurance;
    // Calls given up on that Redis took after all: what they counted there is not owed again.
    this.redisStore = redis
      ? new RedisStore(redis, undefined, {
          decided: (rs, replies) => {
            for (const [i, r] of rs.entries()) insurance!.alsoDecided(r, replies[i]!);
          },
          released: (rs) => {
            for (const r of rs) insurance!.alsoReleased(r);
          },
          settled: (rs) => {
            for (const r of rs) insurance!.confirm(r.id);
          },
        })
      : null;
    // A lease lives leaseTtlMs at most unless renewed (src/limits/renewals.ts).
    this.storePolicies = new StorePolicies((policy) => Math.min(leaseMs(policy), leaseTtlMs));
  }

  /** Gives a lease back to Redis: what the lease book retries with (bound once, off the hot path). */
  private readonly sendRelease = (r: ReleaseRequest): Promise<void> => this.redisStore!.release(r);

  async check(toolId: string, client: string, policy: ToolPolicy, opts: CheckOptions): Promise<Check> {
    const key = limitKey(this.prefix, toolId, client);
    const qKey = quotaKey(this.prefix, client);
    const sp = this.storePolicies.get(policy, opts.tier);
    const first = await this.decide(this.request(key, qKey, sp, 1, !opts.cached), true);
    const rate = rateDecision(policy, first.reply[0], first.reply[1], first.reply[2] === 1);
    if (!rate.allowed) return { ok: false, rate, refusal: rateSpent(toolId, policy, rate) };
    if (opts.cached) return { ok: true, rate, lease: null };
    const waitUntil = Date.now() + this.capWaitMs;
    const at = { toolId, client, key, quotaKey: qKey, policy, sp };
    let decided = first;
    let admitted = this.admitted(at, first);
    if (!isLease(admitted) && admitted.code === 'CONCURRENCY_LIMIT') {
      // Past the client's cap (or a quota of ms its runs in flight fill): wait in the client's
      // own line for one of its runs to end.
      const retry = async () => {
        decided = await this.decide(this.request(key, qKey, sp, 0, true));
        const again = this.admitted(at, decided);
        return isLease(again) || again.code !== 'CONCURRENCY_LIMIT' ? again : null;
      };
      // Traced (docs/operations.md, "Traces"): the wait for a turn is where a capped client's time goes.
      const turn = () => this.lines.acquire(lineOf(toolId, client), waitUntil, retry);
      admitted = (await inSpan('toolhub.admission.wait', {}, turn)) ?? admitted;
    }
    if (!isLease(admitted)) return { ok: false, rate, refusal: admitted };
    if (!(await this.toolSlot(toolId, policy, waitUntil))) {
      await this.giveBack(admitted, 0);
      return { ok: false, rate, refusal: toolCap(toolId, policy) };
    }
    const life = this.leaseMs(policy);
    if (life > this.renewals.ttlMs) this.renewals.taken(admitted, life);
    const quota = quotaUseOf(sp, decided.reply);
    return quota ? { ok: true, rate, lease: admitted, quota } : { ok: true, rate, lease: admitted };
  }

  /**
   * Frees both slots and charges `workerMs` to the client's budget. Awaited before the
   * answer goes out, so a client that calls another instance next finds its slot freed and
   * its time charged. Never throws (a release that fails is charged in-process).
   */
  async release(lease: Lease, workerMs: number): Promise<void> {
    this.renewals.given(lease);
    this.toolRuns.release(lease.toolId);
    this.lines.notify(lease.toolId);
    await this.giveBack(lease, workerMs);
  }

  /**
   * Counts `points` against a rate limit of `limit` a minute under the client's message key
   * (the MCP message limit): the same store and turn as the runs' checks.
   */
  async countMessages(client: string, points: number, policy: StorePolicy): Promise<RateDecision> {
    return this.countRequests(messageKey(this.prefix, client), points, policy);
  }

  /** Counts one request against the client's own limit on GET /api/usage (the same store and turn). */
  countUsageRead(client: string, policy: StorePolicy, name = '@usage'): Promise<RateDecision> {
    return this.countRequests(limitKey(this.prefix, name, client), 1, policy);
  }

  /**
   * What `client` has used of `toolId`'s limits under `tier`, read without counting (with
   * `toolId` null: its quotas per key, in the last six): from Redis while it serves, else
   * from this instance's store.
   */
  async usage(
    toolId: string | null,
    client: string,
    tier: string,
  ): Promise<{ reply: UsageReply; store: Store }> {
    const key = toolId === null ? quotaKey(this.prefix, client) : limitKey(this.prefix, toolId, client);
    if (this.redisStore && this.redis?.usable()) {
      try {
        return { reply: await this.redisStore.usage(key, tier), store: 'redis' };
      } catch (err) {
        this.redis.failed(`usage: ${(err as Error).message}`);
      }
    }
    return {
      reply: this.insurance ? this.insurance.usage(key, tier) : this.memory.usageNow(key, tier),
      store: 'memory',
    };
  }

  private async countRequests(key: string, points: number, policy: StorePolicy): Promise<RateDecision> {
    const { reply } = await this.decide(this.request(key, key, policy, points, false), true);
    return rateDecision(policy, reply[0], reply[1], reply[2] === 1);
  }

  /** Leases this instance holds on clients' slots in Redis, by tool, and releases waiting for Redis. */
  leases(): { held: ReadonlyMap<string, number>; unreleased: number } {
    return { held: this.book.held, unreleased: this.book.pending };
  }

  private request(
    key: string,
    quotaKey: string,
    policy: StorePolicy,
    points: number,
    admit: boolean,
  ): DecideRequest {
    return { key, quotaKey, policy, points, admit, leaseId: admit ? this.book.nextId() : '' };
  }

  /**
   * The store's decision: Redis while it serves (after the turn's I/O, so a turn's decisions
   * share one call), else, or when the call fails, the in-process store, as an insurance.
   */
  private async decide(r: DecideRequest, inTurn = false): Promise<Decided> {
    const redis = this.redis;
    if (this.redisStore && redis) {
      if (redis.usable()) {
        if (inTurn) await endOfTurn();
        try {
          // What the insurance counted goes to Redis before Redis decides again.
          if (this.insurance?.counting) await this.settle();
          const reply = await this.redisStore.decide(r);
          this.known.learn(r, reply, Date.now());
          this.book.retry(this.sendRelease);
          return { reply, store: 'redis', leaseId: r.leaseId };
        } catch (err) {
          redis.failed(`limits: ${(err as Error).message}`);
          // A call that timed out may still run in Redis: the lease it took there would hold a
          // slot of the client's until its deadline. It is given back once Redis answers again.
          if (r.admit) {
            this.book.failed(orphanOf(r));
            // The lease taken here gets an id of its own: that one is given back there.
            r = { ...r, leaseId: this.book.nextId() };
          }
        }
      } else redis.fellBack('not ready');
    }
    const reply = this.insurance ? this.insurance.decide(r) : this.memory.decideNow(r);
    return { reply, store: 'memory', leaseId: r.leaseId };
  }

  /**
   * Hands what the insurance counted in an outage to Redis (src/limits/settle.ts); the
   * decisions waiting for Redis wait for it. Throws when a part did not reach Redis: that part
   * stays counted here, to be sent again.
   */
  private settle(): Promise<void> {
    this.settling ??= (async () => {
      try {
        // The calls given up on answer first: what Redis took of them is not owed.
        await this.redisStore!.answered();
        const parts = this.insurance!.settlement();
        const sent = await Promise.allSettled(parts.map((p) => this.redisStore!.settle(p)));
        for (const [i, s] of sent.entries())
          if (s.status === 'fulfilled') this.insurance!.confirm(parts[i]!.id);
        const failed = sent.find((s) => s.status === 'rejected');
        if (failed) throw (failed as PromiseRejectedResult).reason;
      } finally {
        this.settling = null;
      }
    })();
    return this.settling;
  }

  /**
   * Moves on the deadlines of one client and tool's leases of runs still in flight, where each
   * is held: Redis (taken there, or handed to it after an outage) or here. A renewal that fails
   * is tried again at the next tick (a lease lapses only after its life without one).
   */
  private renew(leases: Lease[]): void {
    const l = leases[0]!;
    const request = {
      key: l.key,
      quotaKey: l.quotaKey,
      leaseIds: leases.map((x) => x.id),
      ms: this.renewals.ttlMs,
      quotas: l.quotas,
    };
    const inRedis = l.store === 'redis' || this.insurance?.inRedis(l.id);
    if (inRedis && this.redisStore && this.redis?.usable()) this.redisStore.renew(request).catch(() => {});
    else if (!inRedis) void this.memory.renew(request);
  }

  /** Stops renewing (the hub closes). */
  close(): void {
    this.renewals.close();
  }

  /** The admission part of a decision as a lease or a refusal. */
  private admitted(at: Admission, d: Decided): Lease | Refusal {
    const refusal = refusalOf(at, d.reply);
    if (refusal) return refusal;
    if (d.store === 'redis') this.book.taken(at.toolId);
    return leaseOf(at, d);
  }

  private async giveBack(lease: Lease, workerMs: number): Promise<void> {
    const request: ReleaseRequest = {
      key: lease.key,
      quotaKey: lease.quotaKey,
      leaseId: lease.id,
      chargedMs: Math.ceil(workerMs),
      windowMs: lease.policy.windowSec * 1000,
      quotas: lease.quotas,
    };
    const insurance = this.insurance;
    // A lease taken in Redis, or taken here while it was away and handed to it since.
    if (
      this.redisStore &&
      this.redis &&
      insurance &&
      (lease.store === 'redis' || insurance.handedOver(request))
    ) {
      if (lease.store === 'redis') this.book.given(lease.toolId);
      try {
        await this.redisStore.release(request);
      } catch (err) {
        // The charge goes in-process; the lease is given back once Redis answers again (or
        // frees itself at its deadline, whichever comes first).
        this.redis.failed(`admission release: ${(err as Error).message}`);
        await insurance.release({ ...request, leaseId: '' }, lease.storePolicy);
        this.book.failed(request);
      }
    } else if (insurance) await insurance.release(request, lease.storePolicy);
    else await this.memory.release(request);
    this.lines.notify(lineOf(lease.toolId, lease.client));
  }

  /** The tool's cap on this instance: past it, wait in the tool's line. */
  private async toolSlot(toolId: string, policy: ToolPolicy, waitUntil: number): Promise<boolean> {
    const take = () => (this.toolRuns.tryAcquire(toolId, policy.maxInFlight) ? true : null);
    return take() ?? (await this.lines.acquire(toolId, waitUntil, async () => take())) ?? false;
  }
}

/** The release of a lease a failed decision may have taken in Redis (it charges nothing). */
function orphanOf(r: DecideRequest): ReleaseRequest {
  const quotas = quotaBits(r.policy.quotas);
  return {
    key: r.key,
    quotaKey: r.quotaKey,
    leaseId: r.leaseId,
    chargedMs: 0,
    windowMs: r.policy.windowMs,
    quotas,
  };
}
