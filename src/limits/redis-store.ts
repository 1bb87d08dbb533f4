import type { ToolPolicy } from '../config/policy.js';
import type { LimiterRedis } from './redis-client.js';

/** One client's admission: budget key, lease key, budget, cap, and the lease asked for. */
export interface AdmitRequest {
  budgetKey: string;
  slotKey: string;
  budgetMs: number;
  maxInFlight: number;
  leaseMs: number;
  leaseId: string;
}

/** `[budgetUsed, budgetPttl, leases]`; leases is -1 at the cap and 0 when the budget is spent. */
export type AdmitReply = [number, number, number];

/** A run's rate-limit count and, if `admit`, its admission, in one step (keys: src/limits/keys.ts). */
export interface CheckRequest {
  /** The rate counters' name: the tool id, or `<toolId>:<tier>`. */
  name: string;
  toolId: string;
  client: string;
  /** Sent once per call for all the runs of one `name`. */
  policy: ToolPolicy;
  /** The lease's life unless released: the run's longest life in the hub. */
  leaseMs: number;
  leaseId: string;
  admit: boolean;
}

/** `[consumed, msBeforeNext, allowed (1/0), ...AdmitReply]` (the admission part is `0, -2, 0` when not asked). */
export type CheckReply = [number, number, number, number, number, number];

export interface ReleaseRequest {
  budgetKey: string;
  slotKey: string;
  chargedMs: number;
  windowMs: number;
  leaseId: string;
}

/** Most requests sent in one script call. */
const MAX_PER_CALL = 256;

/**
 * Limit checks and releases of many requests, sent as one script call per event-loop
 * turn and kind instead of one per request. The caller issues them after the turn's I/O
 * (see `endOfTurn`), so every request that arrived in that turn shares one Redis write
 * and one reply (ioredis auto-pipelining groups what is issued in one tick).
 */
export class TurnScripts {
  /** A Redis Cluster: one request per call (its keys share one hash slot), and no `check`. */
  readonly cluster: boolean;
  private readonly admits: TurnQueue<AdmitRequest, AdmitReply>;
  private readonly checks: TurnQueue<CheckRequest, CheckReply>;
  private readonly releases: TurnQueue<ReleaseRequest, undefined>;

  constructor(redis: LimiterRedis, prefix: string) {
    this.cluster = redis.cluster;
    const perCall = redis.cluster ? 1 : MAX_PER_CALL;
    this.admits = new TurnQueue(perCall, async (reqs) => {
      const keys = reqs.flatMap((r) => [r.budgetKey, r.slotKey]);
      const args = reqs.flatMap((r) => [r.budgetMs, r.maxInFlight, r.leaseMs, r.leaseId]);
      return split(await redis.client.toolhubAdmit(keys.length, ...keys, ...args), 3) as AdmitReply[];
    });
    this.checks = new TurnQueue(perCall, async (reqs) => {
      const policies = new Map<string, { policy: ToolPolicy; index: number }>();
      const head: (string | number)[] = [prefix, 0];
      const runs: (string | number)[] = [];
      let count = 0;
      for (const r of reqs) {
        let known = policies.get(r.name);
        if (known?.policy !== r.policy) {
          known = { policy: r.policy, index: count++ };
          policies.set(r.name, known);
          const p = r.policy;
          const burst = Math.max(p.burst, 0);
          head.push(
            r.name,
            r.toolId,
            p.limit,
            burst,
            p.windowSec,
            p.computeBudgetMs,
            p.maxInFlightPerClient,
            r.leaseMs,
          );
        }
        runs.push(known.index, r.admit ? 1 : 0, r.client, r.leaseId);
      }
      head[1] = count;
      return split(await redis.client.toolhubCheck(0, ...head, ...runs), 6) as CheckReply[];
    });
    this.releases = new TurnQueue(perCall, async (reqs) => {
      const keys = reqs.flatMap((r) => [r.budgetKey, r.slotKey]);
      const args = reqs.flatMap((r) => [r.chargedMs, r.windowMs, r.leaseId]);
      await redis.client.toolhubRelease(keys.length, ...keys, ...args);
      return reqs.map(() => undefined);
    });
  }

  admit(req: AdmitRequest): Promise<AdmitReply> {
    return this.admits.push(req);
  }

  /** Not on a cluster: the rate keys are rate-limiter-flexible's, in slots of their own. */
  check(req: CheckRequest): Promise<CheckReply> {
    return this.checks.push(req);
  }

  /** Resolves with no value, or with the error that kept the release from Redis. */
  release(req: ReleaseRequest): Promise<unknown> {
    return this.releases.push(req).then(
      () => undefined,
      (err: unknown) => err,
    );
  }
}

/** Requests of one kind queued in this tick, sent together (in chunks of `perCall`) on the next. */
class TurnQueue<Req, Rep> {
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

/** A flat script reply cut into one tuple per request. */
function split(flat: number[], width: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += width) out.push(flat.slice(i, i + width));
  return out;
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
