import { Counter, Gauge, type Registry } from 'prom-client';
import { QUOTA_ENTRIES } from './config/quota.js';
import type { QuotaInfo } from './errors.js';

/**
 * The quotas for the operator (docs/operations.md, "Quotas"), by tier and never by key:
 * refusals, and the share of a quota the most spending key of a tier has used in the open
 * window, as this instance saw it at its admissions (the alert ToolHubTierNearQuota reads
 * its max over the instances). A window's share is dropped when the window ends.
 */
export class QuotaMetrics {
  private readonly refusals: Counter<'tier' | 'per' | 'window' | 'kind'>;
  /** `tier\0window` → the highest share seen and when its window ends. */
  private readonly shares = new Map<string, { share: number; endsAt: number }>();

  constructor(registry: Registry) {
    const registers = [registry];
    this.refusals = new Counter({
      name: 'toolhub_quota_refusals_total',
      help: 'Runs refused by a quota, by API-key tier (none: no key), whose quota (tool, key), window and kind',
      labelNames: ['tier', 'per', 'window', 'kind'],
      registers,
    });
    const shares = this.shares;
    new Gauge({
      name: 'toolhub_quota_used_ratio',
      help: 'Highest share (0..1) of a quota used by one client of the tier in the open UTC day or month, seen here',
      labelNames: ['tier', 'window'],
      registers,
      // The box's highest share, not a sum over its processes (HUB_PROCESSES > 1).
      aggregator: 'max',
      collect() {
        this.reset();
        const now = Date.now();
        for (const [k, v] of shares) {
          if (v.endsAt <= now) shares.delete(k);
          else {
            const [tier, window] = k.split('\0') as [string, string];
            this.labels(tier, window).set(v.share);
          }
        }
      },
    });
  }

  refused(tier: string, quota: Pick<QuotaInfo, 'per' | 'window' | 'kind'>): void {
    this.refusals.labels(tier, quota.per, quota.window, quota.kind).inc();
  }

  /** After an admission: the most used quota of the run's client, `used` of `limit`, its window ending in `msLeft`. */
  used(tier: string, entry: number, used: number, limit: number, msLeft: number): void {
    const key = `${tier}\0${QUOTA_ENTRIES[entry]!.window}`;
    const now = Date.now();
    const share = Math.min(1, used / limit);
    const seen = this.shares.get(key);
    if (!seen || seen.endsAt <= now) this.shares.set(key, { share, endsAt: now + msLeft });
    else if (share > seen.share) seen.share = share;
  }
}
