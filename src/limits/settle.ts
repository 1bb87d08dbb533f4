import { dayEndOf, monthEndOf } from './calendar.js';
import { EXPIRY_SLACK_MS, type State } from './decide.js';
import type { SettleRequest } from './store.js';

/** How long Redis keeps a settlement's id: longer than a hub goes on sending it again. */
export const SETTLED_KEEP_MS = 600_000;

/**
 * Adds a settlement (what an instance counted while Redis was away: docs/architecture.md, "The
 * insurance") to a client's tool state `s` (and its quota state), as src/limits/lua/settle.lua does.
 */
export function settle(s: State, r: SettleRequest, now: number, quotaState: () => State): void {
  if (s.leasesExpireAt <= now) s.leases.clear();
  // A settlement taken before (sent again when its answer was lost) is not taken twice; the
  // ids kept past their time are dropped.
  for (const [f, until] of s.counters) if (f[0] === 'k' && until <= now) s.counters.delete(f);
  if (s.counters.has(`k${r.id}`)) return;
  s.counters.set(`k${r.id}`, now + SETTLED_KEEP_MS);
  const needs = [now + SETTLED_KEEP_MS, 0];
  const hashes: (Map<string, number> | undefined)[] = [s.counters, undefined];
  const hashOf = (which: 1 | 2) => {
    hashes[which - 1] ??= which === 1 ? s.counters : quotaState().counters;
    return hashes[which - 1]!;
  };
  const raise = (which: 1 | 2, end: number) => {
    needs[which - 1] = Math.max(needs[which - 1]!, end);
  };
  for (const [which, c, e, delta, msLeft] of r.counts) {
    if (delta <= 0) continue;
    const h = hashOf(which);
    const calendar = e === 'de' ? dayEndOf(now) : e === 'me' ? monthEndOf(now) : 0;
    let end = h.get(e) ?? 0;
    if (end > now) h.set(c, (h.get(c) ?? 0) + delta);
    else if (msLeft > 0) {
      end = calendar || now + msLeft;
      // A calendar window starts again with both of its counts (runs and ms) at 0.
      if (calendar) for (const f of e === 'de' ? ['dr', 'dm'] : ['mr', 'mm']) h.set(f, 0);
      h.set(c, delta);
      h.set(e, end);
    } else continue;
    raise(which, end);
  }
  let created = false;
  for (const [id, msLeft] of r.leases) {
    if (s.leases.size === 0) created = true;
    hashOf(1);
    s.leases.set(id, now + msLeft);
    raise(1, now + msLeft);
  }
  for (const [which, id, ms, msLeft] of r.reservations) {
    const h = hashOf(which);
    h.set(`r${id}`, ms);
    h.set(`t${id}`, now + msLeft);
    raise(which, now + msLeft);
  }
  // Each hash's expiry covers what it now holds; the leases' set expires with the counters, as
  // decide() keeps it (set when it is made or when their expiry grows).
  let grown: number | null = null;
  for (const which of [1, 2] as const) {
    const h = hashes[which - 1];
    const x = h?.get('x') ?? 0;
    if (!h || needs[which - 1]! <= x) continue;
    h.set('x', needs[which - 1]! + EXPIRY_SLACK_MS);
    if (which === 1) grown = h.get('x')!;
  }
  if (grown !== null || created) s.leasesExpireAt = grown ?? s.counters.get('x') ?? 0;
}
