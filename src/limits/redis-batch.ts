import type { LimiterRedis } from './redis-client.js';

/** One client's admission check: budget key, in-flight key, budget, cap and slot TTL. */
export interface AdmitRequest {
  budgetKey: string;
  slotKey: string;
  budgetMs: number;
  maxInFlight: number;
  slotTtlMs: number;
}

/** `[budgetUsed, budgetPttl, inFlight]`; inFlight is -1 at the cap and 0 when the budget is spent. */
export type AdmitReply = [number, number, number];

export interface ReleaseRequest {
  budgetKey: string;
  slotKey: string;
  chargedMs: number;
  windowMs: number;
}

/** Most key pairs sent in one script call. */
const MAX_PER_CALL = 256;

/**
 * Admission checks and releases of many requests, sent as one script call per event-loop
 * turn instead of one per request. The caller issues them after the turn's I/O (see
 * `endOfTurn`), so every request that arrived in that turn shares one Redis write with
 * the rate-limit commands (ioredis auto-pipelining groups what is issued in one tick).
 */
export class RedisBatch {
  private admits: { req: AdmitRequest; resolve: (r: AdmitReply) => void; reject: (e: unknown) => void }[] =
    [];
  private releases: { req: ReleaseRequest; done: (err?: unknown) => void }[] = [];

  /** Key pairs per script call: on a Redis Cluster one (each pair is one hash slot), else many. */
  private readonly perCall: number;

  constructor(private readonly redis: LimiterRedis) {
    this.perCall = redis.cluster ? 1 : MAX_PER_CALL;
  }

  admit(req: AdmitRequest): Promise<AdmitReply> {
    return new Promise((resolve, reject) => {
      if (this.admits.push({ req, resolve, reject }) === 1) process.nextTick(() => this.flushAdmits());
    });
  }

  /** Resolves with no value, or with the error that kept the release from Redis. */
  release(req: ReleaseRequest): Promise<unknown> {
    return new Promise((done) => {
      if (this.releases.push({ req, done }) === 1) process.nextTick(() => this.flushReleases());
    });
  }

  private flushAdmits(): void {
    for (const calls of chunks(this.admits.splice(0), this.perCall)) {
      const keys = calls.flatMap(({ req }) => [req.budgetKey, req.slotKey]);
      const args = calls.flatMap(({ req }) => [req.budgetMs, req.maxInFlight, req.slotTtlMs]);
      this.redis.client.toolhubAdmit(keys.length, ...keys, ...args).then(
        (flat) => {
          for (const [i, c] of calls.entries()) c.resolve([flat[3 * i]!, flat[3 * i + 1]!, flat[3 * i + 2]!]);
        },
        (err: unknown) => {
          for (const c of calls) c.reject(err);
        },
      );
    }
  }

  private flushReleases(): void {
    for (const calls of chunks(this.releases.splice(0), this.perCall)) {
      const keys = calls.flatMap(({ req }) => [req.budgetKey, req.slotKey]);
      const args = calls.flatMap(({ req }) => [req.chargedMs, req.windowMs]);
      this.redis.client.toolhubRelease(keys.length, ...keys, ...args).then(
        () => {
          for (const c of calls) c.done();
        },
        (err: unknown) => {
          for (const c of calls) c.done(err);
        },
      );
    }
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
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
