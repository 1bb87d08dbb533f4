import { randomBytes } from 'node:crypto';
import { dayEndOf, monthEndOf } from './calendar.js';
import { EXPIRY_SLACK_MS } from './decide.js';
import type { Known, LastKnown } from './last-known.js';
import type { MemoryStore } from './memory-store.js';
import type {
  DecideReply,
  DecideRequest,
  ReleaseRequest,
  SettleCount,
  SettleRequest,
  StorePolicy,
  UsageReply,
} from './store.js';
import { readUsage } from './usage.js';

/** The quota fields of a state in QUOTA_ENTRIES' order within a quota (runs and ms a day, then a month). */
const QUOTA_FIELDS = ['dr', 'dm', 'mr', 'mm'] as const;

/** A settlement built and not yet known to be in Redis (sent again, with its id, until it is). */
interface Part {
  request: SettleRequest;
}

/**
 * The in-process insurance while Redis is away (docs/architecture.md, "The insurance"), for a
 * hub that counts in Redis. An outage starts with the first decision Redis could not take and
 * ends once Redis has what it counted. Each key it touches starts from what this instance last
 * knew of it (src/limits/last-known.ts), so a client is not given a fresh window, budget or
 * day; with `processes` > 1 (the box's API processes, one instance of the fleet) each process
 * admits only its share of what was left (`share`), so the box admits no more than one
 * instance. What it counted here is owed to Redis: `settlement()` hands it over.
 */
export class Insurance {
  /** The keys this outage touched and the counters Redis has (or is being sent) of each. */
  private readonly seeds = new Map<string, Map<string, number>>();
  /** Settlements sent and not yet known to be in Redis, by id. */
  private readonly pending = new Map<string, Part>();
  /** The lease ids of runs admitted here that a settlement hands to Redis, and the part that does. */
  private readonly moved = new Map<string, string>();
  private readonly shares = new WeakMap<StorePolicy, StorePolicy>();
  private readonly idPrefix = randomBytes(6).toString('base64url');
  private ids = 0;

  constructor(
    private readonly store: MemoryStore,
    private readonly known: LastKnown,
    private readonly processes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An outage is under way, or its settlement is: Redis does not yet have all this instance counted. */
  get counting(): boolean {
    return this.seeds.size > 0;
  }

  decide(r: DecideRequest): DecideReply {
    this.seed(r.key, r.quotaKey, r.policy);
    return this.store.decideNow(this.processes > 1 ? { ...r, policy: this.share(r.policy) } : r);
  }

  /** A run's release here: its lease, or the charge of a Redis lease whose release failed. */
  release(r: ReleaseRequest, policy: StorePolicy): Promise<void> {
    this.seed(r.key, r.quotaKey, policy);
    return this.store.release(r);
  }

  /** Whether a lease taken here has been handed to Redis (it is renewed there). */
  inRedis(leaseId: string): boolean {
    return this.moved.has(leaseId);
  }

  /**
   * Whether the lease of `r` was taken here and handed to Redis since: then it is forgotten
   * here, and its release (and its charge) go to Redis. A settlement not yet known to be there
   * no longer carries it (if it was there, the release frees it; if not, it never will be).
   */
  handedOver(r: ReleaseRequest): boolean {
    const part = this.moved.get(r.leaseId);
    if (part === undefined) return false;
    this.moved.delete(r.leaseId);
    const p = this.pending.get(part);
    if (p)
      p.request = {
        ...p.request,
        leases: p.request.leases.filter(([id]) => id !== r.leaseId),
        reservations: p.request.reservations.filter(([, id]) => id !== r.leaseId),
      };
    if (this.store.peek(r.key)) void this.store.release({ ...r, chargedMs: 0 });
    return true;
  }

  /** What a client has used, as this instance counts it now (the last known counts where it has not counted). */
  usage(key: string, tier: string): UsageReply {
    if (this.seeds.has(key)) return this.store.usageNow(key, tier);
    const now = this.now();
    const counters = this.startingCounts(key, undefined, tier, now);
    this.startQuotas(counters, this.known.get(key), undefined, 0, now);
    counters.set('x', now + EXPIRY_SLACK_MS);
    return readUsage({ counters, leases: new Map(), leasesExpireAt: 0 }, tier, now);
  }

  /**
   * What Redis does not have yet of what this instance counted here (src/limits/settle.ts):
   * the settlements sent before and not known to be there, and one more per client and tool
   * that counted since (its client's quota state in the first of its requests), whose runs
   * still in flight move their leases and reservations there. What a new one carries counts as
   * sent from now on; a key with nothing counted since and nothing on its way is forgotten, so
   * the next outage starts it from what Redis says then. `confirm` each that Redis took.
   */
  settlement(): SettleRequest[] {
    const now = this.now();
    const busy = new Set<string>();
    for (const { request } of this.pending.values()) busy.add(request.key).add(request.quotaKey);
    const quotaDone = new Set<string>();
    for (const [key, seed] of [...this.seeds]) {
      const quotaKey = quotaKeyOf(key);
      if (key === quotaKey) continue;
      const s = this.store.peek(key);
      const counts = s ? owed(1, s.counters, seed, now) : [];
      const reservations = s ? held(1, s.counters, now, this.moved) : [];
      const leases: [string, number][] = [];
      if (s && s.leasesExpireAt > now)
        for (const [id, deadline] of s.leases)
          if (deadline > now && !this.moved.has(id)) leases.push([id, deadline - now]);
      const sent: string[] = [key];
      if (!quotaDone.has(quotaKey) && this.seeds.has(quotaKey)) {
        quotaDone.add(quotaKey);
        sent.push(quotaKey);
        const q = this.store.peek(quotaKey);
        if (q) {
          counts.push(...owed(2, q.counters, this.seeds.get(quotaKey)!, now));
          reservations.push(...held(2, q.counters, now, this.moved));
        }
      }
      if (counts.length + leases.length + reservations.length === 0) {
        if (!busy.has(key)) this.forget(key);
        continue;
      }
      const id = `${this.idPrefix}${(this.ids++).toString(36)}`;
      this.pending.set(id, { request: { id, key, quotaKey, counts, leases, reservations } });
      for (const [lease] of leases) this.moved.set(lease, id);
      for (const k of sent) this.seeds.set(k, new Map(this.store.peek(k)?.counters));
    }
    // A client's quota state goes with its tool keys: forgotten once none of them is left.
    const withTools = new Set<string>();
    for (const key of this.seeds.keys()) if (key !== quotaKeyOf(key)) withTools.add(quotaKeyOf(key));
    for (const key of this.seeds.keys())
      if (key === quotaKeyOf(key) && !busy.has(key) && !withTools.has(key)) this.forget(key);
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Redis has the settlement `id`. */
  confirm(id: string): void {
    this.pending.delete(id);
  }

  /**
   * A decision this instance gave up on and took here, which Redis took too after all (its
   * answer came late): what Redis counted of it counts as told (src/limits/redis-store.ts).
   */
  alsoDecided(r: DecideRequest, reply: DecideReply): void {
    const seed = this.seeds.get(r.key);
    const s = this.store.peek(r.key);
    if (!seed || !s) return;
    if (r.points > 0) told(seed, s.counters, `c${r.policy.tier}`, `e${r.policy.tier}`, r.points);
    // Admitted there: its quotas counted the run.
    if (reply[5] <= 0) return;
    const q = this.seeds.get(r.quotaKey);
    const qs = this.store.peek(r.quotaKey);
    for (const [from, sd, st] of [
      [0, seed, s],
      [4, q, qs],
    ] as const) {
      if (!sd || !st || !hasQuota(r.policy, from)) continue;
      told(sd, st.counters, 'dr', 'de', 1);
      told(sd, st.counters, 'mr', 'me', 1);
    }
  }

  /** A release this instance gave up on and charged here, which Redis took too after all. */
  alsoReleased(r: ReleaseRequest): void {
    if (r.chargedMs <= 0) return;
    for (const [key, bit, budget] of [
      [r.key, 1, true],
      [r.quotaKey, 2, false],
    ] as const) {
      const seed = this.seeds.get(key);
      const s = this.store.peek(key);
      if (!seed || !s) continue;
      if (budget) told(seed, s.counters, 'u', 'v', r.chargedMs);
      if (r.quotas & bit) {
        told(seed, s.counters, 'dm', 'de', r.chargedMs);
        told(seed, s.counters, 'mm', 'me', r.chargedMs);
      }
    }
  }

  private forget(key: string): void {
    this.seeds.delete(key);
    this.store.take(key);
  }

  /** The key's (and its quota key's) state, first touched in this outage: from what was last known. */
  private seed(key: string, quotaKey: string, p: StorePolicy): void {
    const now = this.now();
    for (const [k, from] of [
      [key, 0],
      [quotaKey, 4],
    ] as const) {
      if (this.seeds.has(k) || (from === 4 && !hasQuota(p, 4))) continue;
      const counters = this.startingCounts(k, from === 0 ? p : undefined, p.tier, now);
      if (hasQuota(p, from)) this.startQuotas(counters, this.known.get(k), p, from, now);
      let x = 0;
      for (const [f, v] of counters) if (/^[efv]|^[dm]e$/.test(f)) x = Math.max(x, v);
      if (x > 0) counters.set('x', x + EXPIRY_SLACK_MS);
      this.seeds.set(k, new Map(counters));
      this.store.seed(k, counters);
    }
  }

  /**
   * The rate and budget counters a key starts from: the last known, while their windows last;
   * with `p` and several processes, this process's share of what they left.
   */
  private startingCounts(
    key: string,
    p: StorePolicy | undefined,
    tier: string,
    now: number,
  ): Map<string, number> {
    const k: Known | undefined = this.known.get(key);
    const h = new Map<string, number>();
    let c = k && k.tier === tier && k.rateEnds > now ? k.consumed : 0;
    let e = c > 0 ? k!.rateEnds : 0;
    let u = k && k.budgetEnds > now ? k.budgetUsed : 0;
    let v = u > 0 ? k!.budgetEnds : 0;
    if (p && this.processes > 1) {
      const all = p.limit + p.burst;
      c = all - this.portion(all - c);
      u = p.budgetMs - this.portion(p.budgetMs - u);
      if (c > 0 && e === 0) e = now + p.windowMs;
      if (u > 0 && v === 0) v = now + p.windowMs;
    }
    if (c > 0) {
      h.set(`c${tier}`, c);
      h.set(`e${tier}`, e);
      // Past the limit, the rest of a window's counts were the burst's.
      if (p && c > p.limit) {
        h.set(`b${tier}`, c - p.limit);
        h.set(`f${tier}`, e);
      }
    }
    if (u > 0) {
      h.set('u', u);
      h.set('v', v);
    }
    return h;
  }

  /** The quota counts (per tool from 0, per key from 4) a state starts from, in today's and this month's windows. */
  private startQuotas(
    h: Map<string, number>,
    k: Known | undefined,
    p: StorePolicy | undefined,
    from: number,
    now: number,
  ): void {
    const de = dayEndOf(now);
    const me = monthEndOf(now);
    const at = k?.quotaAt ?? 0;
    QUOTA_FIELDS.forEach((f, j) => {
      const current = at > 0 && (j < 2 ? dayEndOf(at) === de : monthEndOf(at) === me);
      let used = current ? k!.quota[j]! : 0;
      const limit = p?.quotas[from + j] ?? -1;
      if (limit >= 0 && this.processes > 1) used = Math.max(used, limit - this.portion(limit - used));
      h.set(f, used);
    });
    h.set('de', de);
    h.set('me', me);
  }

  /** This process's part of what is left: an equal share, rounded down, so the box admits no more than it. */
  private portion(left: number): number {
    return Math.max(0, Math.floor(left / this.processes));
  }

  /** A policy under which this process holds its share of the client's cap (at least one slot). */
  private share(p: StorePolicy): StorePolicy {
    let s = this.shares.get(p);
    if (!s) {
      s = { ...p, cap: Math.max(1, Math.floor(p.cap / this.processes)) };
      this.shares.set(p, s);
    }
    return s;
  }
}

function hasQuota(p: StorePolicy, from: number): boolean {
  for (let j = from; j < from + 4; j++) if (p.quotas[j]! >= 0) return true;
  return false;
}

/** A tool key's quota key (src/limits/store.ts names both: `…:{<client>}:<toolId>` and `…:{<client>}:@quota`). */
function quotaKeyOf(key: string): string {
  return `${key.slice(0, key.lastIndexOf('}:') + 2)}@quota`;
}

/**
 * What a state counted beyond its seed, per counter and window: all of a window that started
 * here, the growth of one that went on from the seed; only windows still open.
 */
function owed(hash: 1 | 2, h: Map<string, number>, seed: Map<string, number>, now: number): SettleCount[] {
  const out: SettleCount[] = [];
  for (const [c, n] of h) {
    const e = endOf(c);
    if (!e) continue;
    const ends = h.get(e) ?? 0;
    const delta = n - (ends === seed.get(e) ? (seed.get(c) ?? 0) : 0);
    if (delta > 0 && ends > now) out.push([hash, c, e, delta, ends - now]);
  }
  return out;
}

/**
 * `n` of counter `c` (window end `e`) in state counters `h` is in Redis already: its seed takes
 * it, so what is owed (the counts beyond the seed) leaves it out.
 */
function told(seed: Map<string, number>, h: Map<string, number>, c: string, e: string, n: number): void {
  const ends = h.get(e);
  if (ends === undefined) return;
  if (seed.get(e) !== ends) {
    seed.set(e, ends);
    seed.set(c, 0);
  }
  seed.set(c, (seed.get(c) ?? 0) + n);
}

/** The window-end field of a counter field; undefined for the other fields. */
function endOf(field: string): string | undefined {
  if (field === 'dr' || field === 'dm') return 'de';
  if (field === 'mr' || field === 'mm') return 'me';
  if (field === 'u') return 'v';
  if (field[0] === 'c') return `e${field.slice(1)}`;
  if (field[0] === 'b') return `f${field.slice(1)}`;
  return undefined;
}

/** The reservations of runs still in flight (`r<id>`/`t<id>`) in a state's counters, but those handed over already. */
function held(
  hash: 1 | 2,
  h: Map<string, number>,
  now: number,
  moved: ReadonlyMap<string, string>,
): [1 | 2, string, number, number][] {
  const out: [1 | 2, string, number, number][] = [];
  for (const [f, ms] of h) {
    if (f[0] !== 'r' || moved.has(f.slice(1))) continue;
    const deadline = h.get(`t${f.slice(1)}`) ?? 0;
    if (deadline > now) out.push([hash, f.slice(1), ms, deadline - now]);
  }
  return out;
}
