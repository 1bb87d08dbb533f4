import type { DecideReply, ReleaseRequest, StorePolicy } from './store.js';

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
 *   when an end or a deadline outlives it;
 * - leases (a Redis sorted set): each lease's deadline by its id, counted as they are and
 *   pruned (those past their deadline) only at the cap; `expiresAt` is the set's own expiry,
 *   set when it is created or `x` grows (Redis keeps it apart from the counters').
 */
export interface State {
  counters: Map<string, number>;
  leases: Map<string, number>;
  leasesExpireAt: number;
}

const EXPIRY_SLACK_MS = 60_000;

/** The new `x` when `need` outlives the old one, else null. */
function expiry(x: number, need: number): number | null {
  return need > x ? need + EXPIRY_SLACK_MS : null;
}

/** Counts and admits, changing `s`; answers as decide.lua does. */
export function decide(
  s: State,
  p: StorePolicy,
  points: number,
  admit: boolean,
  leaseId: string,
  now: number,
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
  if (allowed === 1 && admit) {
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
      }
    }
  }
  const x = h.get('x') ?? 0;
  const grown = expiry(x, need);
  if (grown !== null) h.set('x', grown);
  if (grown !== null || created) s.leasesExpireAt = grown ?? x;
  return [consumed, ttl, allowed, used, pttl, n];
}

/** Gives the lease back and charges the budget; as release.lua does. */
export function release(s: State, r: ReleaseRequest, now: number): void {
  const h = s.counters;
  if (s.leasesExpireAt <= now) s.leases.clear();
  s.leases.delete(r.leaseId);
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
