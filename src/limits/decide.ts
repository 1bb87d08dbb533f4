import { dayEndOf, monthEndOf } from './calendar.js';
import type { DecideReply, QuotaCounts, ReleaseRequest, StorePolicy } from './store.js';

/**
 * The limit algorithm, in TypeScript for the in-process store; src/limits/lua/decide.lua and
 * release.lua are the same steps in Redis, field for field, and src/limits/stores.test.ts
 * drives both through the same random sequences. One client's state on one tool:
 *
 * - counters (a Redis hash): `c<tier>`/`e<tier>` the rate counter and its window's end,
 *   `b<tier>`/`f<tier>` the burst counter and its end (rate-limiter-flexible's fixed window
 *   and BurstyRateLimiter: a window opens on its first count, every attempt counts, the burst
 *   counts only past the limit); `u`/`v` the budget used and its window's end (opened by its
 *   first charge); `x` when the state expires: raised, with EXPIRY_SLACK_MS to spare, only
 *   when an end or a deadline outlives it; quotas (src/limits/quota.ts) `dr`/`dm`/`de` the
 *   runs, worker ms and end of the UTC day, `mr`/`mm`/`me` of the UTC month, in these
 *   counters for a quota per tool and in the client's quota state for one per key; with a
 *   quota of worker ms, each run in flight reserves its `reserveMs` until its release: under
 *   the tool's, each of its leases does; under the key's (over every tool), the quota state
 *   holds `r<leaseId>` the ms and `t<leaseId>` its lease's deadline, past which it is dropped;
 * - leases (a Redis sorted set): each lease's deadline by its id, counted as they are and
 *   pruned (those past their deadline) only at the cap; `expiresAt` is the set's own expiry,
 *   set when it is created or `x` grows (Redis keeps it apart from the counters').
 */
export interface State {
  counters: Map<string, number>;
  leases: Map<string, number>;
  leasesExpireAt: number;
}

/** How far past what must outlive it a state's expiry is set (lua/includes/expiry.lua says the same). */
export const EXPIRY_SLACK_MS = 60_000;

/** The new `x` when `need` outlives the old one, else null. */
function expiry(x: number, need: number): number | null {
  return need > x ? need + EXPIRY_SLACK_MS : null;
}

const QUSED = ['dr', 'dm', 'mr', 'mm'] as const;
const QEND = ['de', 'de', 'me', 'me'] as const;

/** A quota window that has ended starts again, ending with its UTC day or month. */
function roll(h: Map<string, number>, now: number, monthEnd: number): void {
  if ((h.get('de') ?? 0) <= now) {
    h.set('dr', 0);
    h.set('dm', 0);
    h.set('de', dayEndOf(now));
  }
  if ((h.get('me') ?? 0) <= now) {
    h.set('mr', 0);
    h.set('mm', 0);
    h.set('me', monthEnd);
  }
}

/** Whether the policy has a quota per tool (`[0, 4)`) or per key (`[4, 8)`). */
function hasQuota(p: StorePolicy, from: number): boolean {
  for (let j = from; j < from + 4; j++) if (p.quotas[j]! >= 0) return true;
  return false;
}

/** Whether the policy has a quota of worker ms per tool (`from` 0) or per key (4): runs reserve there. */
function hasMsQuota(p: StorePolicy, from: number): boolean {
  return p.quotas[from + 1]! >= 0 || p.quotas[from + 3]! >= 0;
}

/** The ms reserved by runs in flight, those past their deadline dropped first. */
function reserved(h: Map<string, number>, now: number): number {
  let ms = 0;
  for (const [f, deadline] of h) {
    if (f[0] !== 't') continue;
    const id = f.slice(1);
    if (deadline <= now) {
      h.delete(f);
      h.delete(`r${id}`);
    } else ms += h.get(`r${id}`) ?? 0;
  }
  return ms;
}

/** The leases of a state still before their deadline. */
function liveLeases(s: State, now: number): number {
  let n = 0;
  for (const deadline of s.leases.values()) if (deadline > now) n++;
  return n;
}

/** The quota counts a decision read (DecideReply's tail): runs and ms used, then reserved. */
function quotaCounts(
  h: Map<string, number>,
  q: Map<string, number> | undefined,
  rt: number,
  rk: number,
): QuotaCounts {
  const of = (m: Map<string, number> | undefined) =>
    QUSED.map((f) => m?.get(f) ?? 0) as [number, number, number, number];
  return [...of(h), ...of(q), rt, rk];
}

/**
 * Counts and admits, changing `s` (and `q`, the client's quota state, when a quota per key
 * applies); answers as decide.lua does.
 */
export function decide(
  s: State,
  p: StorePolicy,
  points: number,
  admit: boolean,
  leaseId: string,
  now: number,
  quotaState: () => State,
): DecideReply {
  const h = s.counters;
  if (s.leasesExpireAt <= now) s.leases.clear();
  let need = 0;
  const count = (c: string, e: string): [number, number] => {
    let n = h.get(c) ?? 0;
    let end = h.get(e) ?? 0;
    if (end <= now) {
      n = 0;
      end = now + p.windowMs;
      h.set(e, end);
      need = Math.max(need, end);
    }
    n += points;
    h.set(c, n);
    return [n, end - now];
  };
  let consumed = 0;
  let ttl = 0;
  let allowed = 1;
  if (points > 0) {
    [consumed, ttl] = count(`c${p.tier}`, `e${p.tier}`);
    if (consumed > p.limit) {
      const [b, bttl] = count(`b${p.tier}`, `f${p.tier}`);
      if (bttl < ttl) ttl = bttl;
      if (b > p.burst) allowed = 0;
    }
  }
  let used = 0;
  let pttl = -2;
  let n = 0;
  let created = false;
  let qs = 0;
  let qi = -1;
  let qused = 0;
  let qms = 0;
  let q: Map<string, number> | undefined;
  let rt = 0;
  let rk = 0;
  const tq = hasQuota(p, 0);
  const on = allowed === 1 && admit;
  const quotaMap = (j: number) => (j < 4 ? h : q!);
  if (on && (tq || hasQuota(p, 4))) {
    const monthEnd = monthEndOf(now);
    if (tq) {
      roll(h, now, monthEnd);
      need = Math.max(need, monthEnd);
      // Under the tool's quota each of the client's leases of the tool reserves reserveMs.
      if (hasMsQuota(p, 0)) rt = liveLeases(s, now) * p.reserveMs;
    }
    if (hasQuota(p, 4)) {
      q = quotaState().counters;
      roll(q, now, monthEnd);
      const grown = expiry(q.get('x') ?? 0, monthEnd);
      if (grown !== null) q.set('x', grown);
      if (hasMsQuota(p, 4)) rk = reserved(q, now);
    }
    qs = 1;
    for (let j = 0; j < 8; j++) {
      if (p.quotas[j]! < 0) continue;
      const u = quotaMap(j).get(QUSED[j % 4]!)!;
      if (u >= p.quotas[j]!) {
        [qs, qi, qused, qms] = [2, j, u, quotaMap(j).get(QEND[j % 4]!)! - now];
        break;
      }
    }
    // Worker ms are charged when a run ends: a ms quota admits a run only while what is used
    // and what the runs in flight reserve leave room, so the last one passes it by one run.
    for (let j = 1; j < 8 && qs === 1; j += 2) {
      if (p.quotas[j]! < 0) continue;
      const u = quotaMap(j).get(QUSED[j % 4]!)!;
      if (u + (j < 4 ? rt : rk) >= p.quotas[j]!)
        [qs, qi, qused, qms] = [3, j, u, quotaMap(j).get(QEND[j % 4]!)! - now];
    }
  }
  if (on && qs < 2) {
    const end = h.get('v') ?? 0;
    if (end > now) {
      used = h.get('u') ?? 0;
      pttl = end - now;
    }
    if (used < p.budgetMs) {
      n = s.leases.size;
      if (n >= p.cap) {
        for (const [id, deadline] of s.leases) if (deadline <= now) s.leases.delete(id);
        n = s.leases.size;
      }
      if (n >= p.cap) n = -1;
      else {
        const deadline = now + p.leaseMs;
        s.leases.set(leaseId, deadline);
        created = n === 0;
        n++;
        need = Math.max(need, deadline);
        // A quota counts each admitted run, and a quota of ms holds its reservation.
        for (const m of tq ? [h, q] : [q]) {
          if (!m) continue;
          m.set('dr', m.get('dr')! + 1);
          m.set('mr', m.get('mr')! + 1);
          if (m === q && hasMsQuota(p, 4)) {
            m.set(`r${leaseId}`, p.reserveMs);
            m.set(`t${leaseId}`, deadline);
          }
        }
      }
    }
  }
  if (qs === 1) {
    // The most used quota (of what it allows), for the operator's gauge of tiers near theirs.
    let best = -1;
    for (let j = 0; j < 8; j++) {
      if (p.quotas[j]! < 0) continue;
      const u = quotaMap(j).get(QUSED[j % 4]!)!;
      if (u / p.quotas[j]! > best) {
        best = u / p.quotas[j]!;
        [qi, qused, qms] = [j, u, quotaMap(j).get(QEND[j % 4]!)! - now];
      }
    }
  }
  const x = h.get('x') ?? 0;
  const grown = expiry(x, need);
  if (grown !== null) h.set('x', grown);
  if (grown !== null || created) s.leasesExpireAt = grown ?? x;
  const head: DecideReply = [consumed, ttl, allowed, used, pttl, n, qs, qi, qused, qms];
  return qs === 0 ? head : [...head, ...quotaCounts(h, q, rt, rk)];
}

/** Gives the lease back and charges the budget and the quotas that apply; as release.lua does. */
export function release(s: State, r: ReleaseRequest, now: number, quotaState: () => State): void {
  const h = s.counters;
  if (s.leasesExpireAt <= now) s.leases.clear();
  s.leases.delete(r.leaseId);
  // The run's reservation under the key's quota ends with it (under the tool's, with its lease).
  if (r.quotas & 2) dropReservation(quotaState().counters, r.leaseId);
  if (r.chargedMs > 0 && r.quotas !== 0) {
    const monthEnd = monthEndOf(now);
    for (const [bit, m] of [
      [1, h],
      [2, null],
    ] as const) {
      if ((r.quotas & bit) === 0) continue;
      const c = m ?? quotaState().counters;
      roll(c, now, monthEnd);
      c.set('dm', c.get('dm')! + r.chargedMs);
      c.set('mm', c.get('mm')! + r.chargedMs);
      const grown = expiry(c.get('x') ?? 0, monthEnd);
      if (grown !== null) c.set('x', grown);
    }
  }
  if (r.chargedMs > 0) {
    let end = h.get('v') ?? 0;
    if (end <= now) {
      end = now + r.windowMs;
      h.set('u', r.chargedMs);
      h.set('v', end);
    } else h.set('u', (h.get('u') ?? 0) + r.chargedMs);
    const grown = expiry(h.get('x') ?? 0, end);
    if (grown !== null) h.set('x', grown);
  }
}

function dropReservation(h: Map<string, number>, leaseId: string): void {
  h.delete(`r${leaseId}`);
  h.delete(`t${leaseId}`);
}
