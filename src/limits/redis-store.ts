import { quotaBits } from '../config/quota.js';
import { decisionGroups, expandGroups, releaseGroups, sumCharged } from './groups.js';
import type { LimiterRedis } from './redis-client.js';
import {
  type DecideReply,
  type DecideRequest,
  type LimitStore,
  leasesKey,
  type ReleaseRequest,
  type RenewRequest,
  type SettleRequest,
  type StorePolicy,
  type UsageReply,
} from './store.js';

/** Most decisions sent in one script call. */
const MAX_PER_CALL = 256;

/**
 * The Redis limit store: decide.lua and release.lua (src/limits/lua/). The decisions of one
 * event-loop turn leave as one script call per kind (src/limits/redis-store.ts): every
 * request that arrived in the turn shares one write and one reply. A script call names only
 * declared keys, three per client and tool (its counters, its leases and the client's quotas,
 * in the client's hash slot), each named once however many decisions use them; on a Redis
 * Cluster, where a call's keys must share a slot, each call carries one decision, through
 * the same script.
 */
export class RedisStore implements LimitStore {
  private readonly decisions: TurnQueue<DecideRequest, DecideReply>;
  private readonly releases: TurnQueue<ReleaseRequest, undefined>;
  private readonly settlements: TurnQueue<SettleRequest, undefined>;
  private readonly renewals: TurnQueue<RenewRequest, undefined>;
  /** Redis's clock less this one's, as the last decision read it (their clocks need not agree). */
  private skewMs = 0;

  /**
   * `now`: the clock the scripts count by; 0 (the default) is Redis's own (TIME). `late`
   * hears of calls given up on that Redis took after all, in their time: what they counted
   * there, the caller counted in-process too.
   */
  constructor(
    private readonly redis: LimiterRedis,
    private readonly now: () => number = () => 0,
    private readonly late: LateAnswers = {},
  ) {
    const perCall = redis.cluster ? 1 : MAX_PER_CALL;
    this.decisions = new TurnQueue(perCall, async (reqs) => {
      const policies = new Map<StorePolicy, number>();
      const head: (string | number)[] = [now(), this.validUntil(), 0];
      const args: (string | number)[] = [];
      const keys = new KeyTriples();
      const groups = decisionGroups(reqs);
      for (const g of groups) {
        const r = g[0]!;
        let index = policies.get(r.policy);
        if (index === undefined) {
          index = policies.size;
          policies.set(r.policy, index);
          const p = r.policy;
          head.push(p.tier, p.limit, p.burst, p.windowMs, p.budgetMs, p.cap, p.leaseMs);
          // The quotas only where one applies: nine numbers fewer to send and parse.
          if (quotaBits(p.quotas) === 0) head.push(0);
          else head.push(p.quotas.length + 1, ...p.quotas, p.reserveMs);
        }
        args.push(keys.of(r), index, r.points, r.admit ? 1 : 0, g.length);
        if (r.admit) for (const d of g) args.push(d.leaseId);
      }
      head[2] = policies.size;
      const sentAt = Date.now();
      const call = redis.client.toolhubDecide(keys.list.length, ...keys.list, ...head, ...args);
      const flat = await this.send(call, (late) => {
        if (late.length > 1) this.late.decided?.(groups.flat(), expandGroups(groups, late));
      });
      // Redis read its clock between the send and the reply: taken as halfway.
      this.skewMs = flat[0]! - (sentAt + Date.now()) / 2;
      if (flat.length === 1) throw new LateCall();
      return expandGroups(groups, flat);
    });
    this.releases = new TurnQueue(perCall, async (reqs) => {
      const keys = new KeyTriples();
      const args: (string | number)[] = [now(), this.validUntil()];
      for (const g of releaseGroups(reqs)) {
        args.push(keys.of(g[0]!), g.length, sumCharged(g), g[0]!.windowMs, g[0]!.quotas);
        for (const r of g) args.push(r.leaseId);
      }
      const call = redis.client.toolhubRelease(keys.list.length, ...keys.list, ...args);
      if ((await this.send(call, (late) => late === 1 && this.late.released?.(reqs))) === 0)
        throw new LateCall();
      return reqs.map(() => undefined);
    });
    this.settlements = new TurnQueue(perCall, async (reqs) => {
      const keys = new KeyTriples();
      const args: (string | number)[] = [now(), this.validUntil()];
      for (const r of reqs) {
        args.push(keys.of(r), r.id, r.counts.length, ...r.counts.flat(), r.leases.length, ...r.leases.flat());
        args.push(r.reservations.length, ...r.reservations.flat());
      }
      const call = redis.client.toolhubSettle(keys.list.length, ...keys.list, ...args);
      if ((await this.send(call, (late) => late === 1 && this.late.settled?.(reqs))) === 0)
        throw new LateCall();
      return reqs.map(() => undefined);
    });
    this.renewals = new TurnQueue(perCall, async (reqs) => {
      const keys = new KeyTriples();
      const args: (string | number)[] = [now(), this.validUntil()];
      for (const r of reqs) args.push(keys.of(r), r.ms, r.quotas, r.leaseIds.length, ...r.leaseIds);
      const call = redis.client.toolhubRenew(keys.list.length, ...keys.list, ...args);
      if ((await this.send(call, () => {})) === 0) throw new LateCall();
      return reqs.map(() => undefined);
    });
  }

  /** A script call, given up on at the command timeout; `late` hears its answer if it comes after. */
  private send<T>(call: Promise<T>, late: (value: T) => void): Promise<T> {
    return this.redis.bounded(call, late);
  }

  /** Once every call given up on so far has its answer: what Redis took of them is known then. */
  answered(): Promise<void> {
    return this.redis.answered();
  }

  /**
   * The latest Redis time at which a call sent now may still run: three quarters of the
   * command timeout after it is sent, in Redis's clock. Past it the hub has stopped waiting
   * (or soon will) and counted in-process instead, so the call must do nothing there: a call
   * held by a pause or a stall would otherwise count twice. 0 under an injected clock (tests).
   */
  private validUntil(): number {
    if (this.now() !== 0) return 0;
    return Date.now() + this.skewMs + Math.floor((this.redis.commandTimeoutMs * 3) / 4);
  }

  decide(request: DecideRequest): Promise<DecideReply> {
    return this.decisions.push(request);
  }

  async release(request: ReleaseRequest): Promise<void> {
    await this.releases.push(request);
  }

  async settle(request: SettleRequest): Promise<void> {
    await this.settlements.push(request);
  }

  async renew(request: RenewRequest): Promise<void> {
    await this.renewals.push(request);
  }

  async usage(key: string, tier: string): Promise<UsageReply> {
    return (await this.redis.bounded(
      this.redis.client.toolhubUsage(key, leasesKey(key), this.now(), tier),
    )) as UsageReply;
  }
}

/** Redis took the call past its time: it did nothing there (the caller counts in-process). */
export class LateCall extends Error {
  override readonly name = 'LateCall';
  constructor() {
    super('Command timed out in Redis: taken after its time, it did nothing');
  }
}

/** Calls the store gave up on that Redis took in their time after all (the caller counted them in-process too). */
export interface LateAnswers {
  decided?: (requests: DecideRequest[], replies: DecideReply[]) => void;
  released?: (requests: ReleaseRequest[]) => void;
  settled?: (requests: SettleRequest[]) => void;
}

/**
 * A call's keys, each client-and-tool triple (counters, leases, quotas) named once: a turn's
 * runs of one client on one tool are often many, and every key sent costs the encoding here
 * and the parsing in Redis. A request refers to its triple by number, from 1.
 */
class KeyTriples {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();

  of(r: { key: string; quotaKey: string }): number {
    let t = this.index.get(r.key);
    if (t === undefined) {
      this.list.push(r.key, leasesKey(r.key), r.quotaKey);
      t = this.list.length / 3;
      this.index.set(r.key, t);
    }
    return t;
  }
}

/**
 * Requests of one kind queued in this tick, sent together (in chunks of `perCall`) on the
 * next: with ioredis auto-pipelining, one write and one reply for a turn's requests.
 */
export class TurnQueue<Req, Rep> {
  private queue: { req: Req; resolve: (r: Rep) => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly perCall: number,
    private readonly send: (reqs: Req[]) => Promise<Rep[]>,
  ) {}

  push(req: Req): Promise<Rep> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ req, resolve, reject }) === 1) process.nextTick(() => this.flush());
    });
  }

  private flush(): void {
    const all = this.queue;
    this.queue = [];
    for (let i = 0; i < all.length; i += this.perCall) {
      const calls = all.slice(i, i + this.perCall);
      this.send(calls.map((c) => c.req)).then(
        (reps) => {
          for (const [j, c] of calls.entries()) c.resolve(reps[j]!);
        },
        (err: unknown) => {
          for (const c of calls) c.reject(err);
        },
      );
    }
  }
}

let turn: Promise<void> | null = null;

/**
 * Resolves once this event-loop turn's I/O callbacks have run (setImmediate). Each request
 * arrives in a socket callback of its own, so commands issued there go out one write per
 * request; issued after this, every request of the turn shares one write and one reply.
 */
export function endOfTurn(): Promise<void> {
  if (!turn) {
    turn = new Promise((resolve) =>
      setImmediate(() => {
        turn = null;
        resolve();
      }),
    );
  }
  return turn;
}
