import type { DecideReply, ReleaseRequest, StorePolicy } from './store.js';

/**
 * The limit algorithm, in TypeScript for the in-process store; src/limits/lua/decide.lua and
 * release.lua are the same steps in Redis, field for field, and src/limits/stores.test.ts
 * drives both through the same random sequences. A key's fields:
 *
 * - `c<tier>`/`e<tier>`: the rate counter and its window's end; `b<tier>`/`f<tier>`: the burst
 *   counter and its end (rate-limiter-flexible's fixed window and BurstyRateLimiter: a window
 *   opens on its first count, every attempt counts, the burst counts only past the limit);
 * - `u`/`v`: the budget used and its window's end (the window opens on its first charge);
 * - `l<leaseId>`: a lease's deadline (pruned by time on each admission);
 * - `x`: when the key expires (the latest end or deadline of its fields).
 */
export type Fields = Map<string, number>;

function count(h: Fields, c: string, e: string, points: number, windowMs: number, now: number): number[] {
  let n = h.get(c) ?? 0;
  let end = h.get(e) ?? 0;
  if (end <= now) {
    n = 0;
    end = now + windowMs;
    h.set(e, end);
  }
  n += points;
  h.set(c, n);
  return [n, end - now];
}

/** Counts and admits, changing `h`; answers as decide.lua does. */
export function decide(
  h: Fields,
  p: StorePolicy,
  points: number,
  admit: boolean,
  leaseId: string,
  now: number,
): DecideReply {
  let consumed = 0;
  let ttl = 0;
  let allowed = 1;
  if (points > 0) {
    [consumed, ttl] = count(h, `c${p.tier}`, `e${p.tier}`, points, p.windowMs, now) as [number, number];
    if (consumed > p.limit) {
      const [b, bttl] = count(h, `b${p.tier}`, `f${p.tier}`, points, p.windowMs, now) as [number, number];
      if (bttl < ttl) ttl = bttl;
      if (b > p.burst) allowed = 0;
    }
  }
  let used = 0;
  let pttl = -2;
  let n = 0;
  if (allowed === 1 && admit) {
    const end = h.get('v') ?? 0;
    if (end > now) {
      used = h.get('u') ?? 0;
      pttl = end - now;
    }
    if (used < p.budgetMs) {
      n = 0;
      for (const [field, deadline] of h) {
        if (!field.startsWith('l')) continue;
        if (deadline <= now) h.delete(field);
        else n++;
      }
      if (n >= p.cap) n = -1;
      else {
        h.set(`l${leaseId}`, now + p.leaseMs);
        n++;
      }
    }
  }
  expireAtLatest(h);
  return [consumed, ttl, allowed, used, pttl, n];
}

/** Gives the lease back and charges the budget; as release.lua does. */
export function release(h: Fields, r: ReleaseRequest, now: number): void {
  h.delete(`l${r.leaseId}`);
  if (r.chargedMs > 0) {
    const end = h.get('v') ?? 0;
    if (end <= now) {
      h.set('u', r.chargedMs);
      h.set('v', now + r.windowMs);
    } else h.set('u', (h.get('u') ?? 0) + r.chargedMs);
  }
  expireAtLatest(h);
}

/** `x` is raised to the latest end or deadline among the fields, never lowered. */
function expireAtLatest(h: Fields): void {
  let x = h.get('x') ?? 0;
  for (const [field, value] of h) {
    if (field === 'x' || field === 'u' || field[0] === 'c' || field[0] === 'b') continue;
    if (value > x) x = value;
  }
  h.set('x', x);
}
