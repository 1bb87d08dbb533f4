import { EXPIRY_SLACK_MS, type State } from './decide.js';
import type { RenewRequest } from './store.js';

/**
 * Moves the deadlines of a client's leases of runs still in flight to `now + ms` (never
 * back), as src/limits/lua/renew.lua does (docs/architecture.md, "Leases"): a lease lives a
 * short while unless its instance renews it, so one whose instance died or whose release a
 * failover lost frees its slot soon. A lease no longer held (given back, or pruned past its
 * deadline) is not made again. A run's reservation under a quota of ms moves with it.
 */
export function renew(s: State, r: RenewRequest, now: number, quotaState: () => State): void {
  if (s.leasesExpireAt <= now) s.leases.clear();
  const deadline = now + r.ms;
  const x0 = s.counters.get('x') ?? 0;
  for (const id of r.leaseIds) {
    const old = s.leases.get(id);
    if (old === undefined) continue;
    if (deadline > old) s.leases.set(id, deadline);
    raise(s.counters, deadline);
    for (const [bit, h] of [
      [1, s.counters],
      [2, null],
    ] as const) {
      if ((r.quotas & bit) === 0) continue;
      const m = h ?? quotaState().counters;
      const t = m.get(`t${id}`);
      if (t === undefined) continue;
      if (deadline > t) m.set(`t${id}`, deadline);
      raise(m, deadline);
    }
  }
  // The leases' set expires with the counters (decide() keeps it so).
  const x = s.counters.get('x') ?? 0;
  if (x > x0) s.leasesExpireAt = x;
}

/** Raises a state's expiry `x` to cover `end`, with the slack decide() gives it. */
function raise(h: Map<string, number>, end: number): void {
  if (end > (h.get('x') ?? 0)) h.set('x', end + EXPIRY_SLACK_MS);
}
