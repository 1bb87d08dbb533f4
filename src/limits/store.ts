/**
 * The limit store (docs/architecture.md, "The limiter"): one interface, two implementations
 * with one algorithm, in-process (src/limits/memory-store.ts, over src/limits/decide.ts) and
 * Redis (src/limits/redis-store.ts, over src/limits/lua/decide.lua and release.lua). Every
 * key of one client shares one hash slot, so a decision is one atomic step on a single Redis,
 * behind Sentinel and on a Cluster alike.
 */

import { NO_QUOTAS } from '../config/quota.js';

/** A tool's numbers as the store reads them (a policy, under a tier's counters). */
export interface StorePolicy {
  /** The tier whose rate counters count ('' without one); budget and leases are the tool's. */
  readonly tier: string;
  readonly limit: number;
  readonly burst: number;
  readonly windowMs: number;
  readonly budgetMs: number;
  /** The client's cap on leases at once (maxInFlightPerClient). */
  readonly cap: number;
  /** A lease's life unless given back: the longest a run can live in the hub. */
  readonly leaseMs: number;
  /** Worker ms a run in flight reserves under a quota of worker ms (its timeout: the most it can charge). */
  readonly reserveMs: number;
  /**
   * The 8 quotas, -1 where none (src/config/quota.ts, QUOTA_ENTRIES): per tool runs and worker
   * ms a UTC day, then a UTC month; then the same per key, over every tool.
   */
  readonly quotas: readonly number[];
}

/** One decision: count `points` against the rate limit, then, if asked and allowed, take a lease. */
export interface DecideRequest {
  /** The client's key for the tool (src/limits/store.ts). */
  readonly key: string;
  /** The client's quota key (quotaKey), read when a quota per key applies. */
  readonly quotaKey: string;
  readonly policy: StorePolicy;
  /** Points to count (1 a run, n the messages of an MCP request); 0 leaves the rate limit alone. */
  readonly points: number;
  readonly admit: boolean;
  /** Unique per admission: the lease's id. */
  readonly leaseId: string;
}

/**
 * `[consumed, msBeforeNext, allowed (1/0), budgetUsed, budgetPttl, leases, quotaState,
 * quotaSlot, quotaUsed, quotaMs]`: the main counter after this count and the ms to its
 * window's end (the burst's, if sooner and used); then, when a lease was asked for and the
 * rate allowed it, the budget used and the ms left of its window (-2 with none), and the
 * leases held with this one (-1 at the cap, 0 when the budget or a quota is spent); without
 * the admission `0, -2, 0`. Then the quotas: 0 none applies (or no admission was asked), 1
 * within them, 2 one is spent, 3 a quota of worker ms has no room left beside what the runs in
 * flight reserve; the entry (QUOTA_ENTRIES, by index) of the one spent or full, else of the
 * most used (-1 with none), its use and the ms to its window's end. With a quota state other
 * than 0, QuotaCounts follow.
 */
export type DecideReply = DecideHead | [...DecideHead, ...QuotaCounts];
type DecideHead = [number, number, number, number, number, number, number, number, number, number];
/**
 * The quota counts the decision read, after it: runs today, worker ms today, runs this month,
 * worker ms this month, in the tool's counters and then in the client's quota state (0 where
 * none is kept); then the worker ms reserved by runs in flight in each.
 */
export type QuotaCounts = [number, number, number, number, number, number, number, number, number, number];

/**
 * What one client has used of one tool's limits now, read without counting (GET /api/usage,
 * src/limits/usage.ts): `[rate used, ms to its window's end, burst used, ms to its end,
 * budget used, ms to its end, leases held, runs today, worker ms today, ms to the day's end,
 * runs this month, worker ms this month, ms to the month's end]`; a window not open now reads
 * 0 used and 0 ms. Read on a quota key, the last six are the client's totals.
 */
export type UsageReply = [...RateUsage, ...QuotaWindows];
/** rate used, ms to its end, burst used, ms to its end, budget used, ms to its end, leases. */
type RateUsage = [number, number, number, number, number, number, number];
/** runs, worker ms, ms to the end: of the UTC day, then of the month. */
type QuotaWindows = [number, number, number, number, number, number];

/** After a run: give the lease back and charge its worker time to the budget window. */
export interface ReleaseRequest {
  readonly key: string;
  readonly quotaKey: string;
  readonly leaseId: string;
  readonly chargedMs: number;
  readonly windowMs: number;
  /** Which quotas the worker time counts toward: bit 1 the tool's, bit 2 the key's. */
  readonly quotas: number;
}

export interface LimitStore {
  decide(request: DecideRequest): Promise<DecideReply>;
  /** What a client has used of one tool's limits (src/limits/usage.ts), read without counting. */
  usage(key: string, tier: string): Promise<UsageReply>;
  /** Giving back a lease already given back or expired does nothing, so a retry is safe. */
  release(request: ReleaseRequest): Promise<void>;
  /** Adds what an instance counted while Redis was away (src/limits/settle.ts). */
  settle(request: SettleRequest): Promise<void>;
  /** Moves the deadlines of leases of runs still in flight on (src/limits/renew.ts). */
  renew(request: RenewRequest): Promise<void>;
}

/** Leases of one client and tool whose runs are still in flight, to live `ms` more from now. */
export interface RenewRequest {
  readonly key: string;
  readonly quotaKey: string;
  readonly leaseIds: readonly string[];
  readonly ms: number;
  /** Where their reservations are: bit 1 the tool's counters, bit 2 the client's quota state. */
  readonly quotas: number;
}

/**
 * The limiter's Redis keys, named once. Per client and tool, one hash holds the counters of
 * their decisions (rate windows per tier, budget, the tool's quotas) and one sorted set beside
 * it the leases (src/limits/decide.ts); per client, one hash the quotas per key. Their hash
 * tag (the braces: the client) puts every key of a client in one Redis Cluster slot, so one
 * call decides over all of them. The MCP message limit and the usage reads count per client
 * under tool ids no tool can have (`@mcp`, `@usage`: tool ids are kebab-case).
 */
export function limitKey(prefix: string, toolId: string, client: string): string {
  return `${prefix}lim:{${client}}:${toolId}`;
}

/** The client's quotas per key, over every tool. */
export function quotaKey(prefix: string, client: string): string {
  return limitKey(prefix, '@quota', client);
}

/** The sorted set of leases beside a counters key. */
export function leasesKey(key: string): string {
  return `${key}:l`;
}

/** The key of a client's MCP messages. */
export function messageKey(prefix: string, client: string): string {
  return limitKey(prefix, '@mcp', client);
}

/**
 * What an instance counted on its insurance while Redis was away, charged to Redis when it
 * answers again (docs/architecture.md, "The insurance"): one client and tool's keys at a time.
 * settle() in src/limits/settle.ts and src/limits/lua/settle.lua add it; src/limits/stores.test.ts
 * drives both.
 */
export interface SettleRequest {
  /**
   * Unique per settlement: Redis keeps it (`k<id>` in the counters, SETTLED_KEEP_MS) and takes
   * a settlement sent again (its answer lost) only once.
   */
  readonly id: string;
  readonly key: string;
  readonly quotaKey: string;
  /**
   * Counts to add: the hash (1 the tool's counters, 2 the client's quota state), the counter's
   * field, its window's end field, how much, and the ms its window had left here. A count of a
   * window that has ended is dropped; of a window Redis has not open, it opens one with what
   * was left of it (the UTC day's and month's end where the calendar says).
   */
  readonly counts: readonly SettleCount[];
  /** Leases of runs admitted here still in flight: the id and the ms left to its deadline. */
  readonly leases: readonly (readonly [id: string, msLeft: number])[];
  /** Their reservations under a quota of worker ms: the hash, the lease id, the ms, the ms left. */
  readonly reservations: readonly (readonly [hash: 1 | 2, id: string, ms: number, msLeft: number])[];
}

export type SettleCount = readonly [
  hash: 1 | 2,
  counter: string,
  ends: string,
  delta: number,
  msLeft: number,
];

/**
 * A limit on requests that run nothing (usage reads, the jobs' door): `limit` a minute per
 * caller, no burst, budget or cap.
 */
export function requestLimit(limit: number): StorePolicy {
  return {
    tier: '',
    limit,
    burst: 0,
    windowMs: 60_000,
    budgetMs: 0,
    cap: 0,
    leaseMs: 0,
    reserveMs: 0,
    quotas: NO_QUOTAS,
  };
}
