import type { Lease } from './check.js';

/**
 * How long a lease lives unless renewed (docs/architecture.md, "Leases"): a lease whose
 * instance died, or whose release a failover lost, frees its client's slot this long after its
 * last renewal instead of after its run's whole possible life (tens of seconds).
 */
export const LEASE_TTL_MS = 10_000;
/** How often the leases of runs in flight are renewed, of their life: a stall shorter than 3/4 of it loses none. */
const RENEW_EVERY = 1 / 4;

interface Held {
  lease: Lease;
  takenAt: number;
  /** The run's whole possible life: past it the lease is not renewed again. */
  lifeMs: number;
}

/**
 * The leases of this instance's runs in flight that may outlive their life, renewed every
 * quarter of it once they are that old, grouped per client and tool (one script call a turn
 * on a single Redis).
 */
export class LeaseRenewals {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;

  private readonly everyMs: number;

  /** `ttlMs`: a lease's life from its last renewal (LEASE_TTL_MS; shorter in tests). */
  constructor(
    readonly ttlMs: number,
    private readonly renew: (leases: Lease[]) => void,
  ) {
    this.everyMs = Math.max(1, Math.floor(ttlMs * RENEW_EVERY));
  }

  taken(lease: Lease, lifeMs: number): void {
    this.held.set(lease.id, { lease, takenAt: Date.now(), lifeMs });
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.everyMs);
      this.timer.unref();
    }
  }

  given(lease: Lease): void {
    this.held.delete(lease.id);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.held.clear();
  }

  private tick(): void {
    // Stopped on a tick that finds nothing held, not at each release: a busy instance's held
    // set empties and fills all the time, and a timer per run would cost more than it saves.
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      return;
    }
    const now = Date.now();
    const groups = new Map<string, Lease[]>();
    for (const [id, h] of this.held) {
      const age = now - h.takenAt;
      if (age >= h.lifeMs) this.held.delete(id);
      else if (age >= this.everyMs) {
        const g = `${h.lease.store}\n${h.lease.key}`;
        const group = groups.get(g);
        if (group) group.push(h.lease);
        else groups.set(g, [h.lease]);
      }
    }
    for (const group of groups.values()) this.renew(group);
  }
}
