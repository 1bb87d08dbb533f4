import type { QuotaKind, QuotaWindow } from '../config/quota.js';
import { monthEndOf } from './calendar.js';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers; docs/api.md,
 * "Limit names and the RateLimit headers"): Structured Field lists of String items named by
 * limit names (src/limits/limit-names.ts), whose characters (`a-z0-9-/@` and a kind's
 * camelCase) need no escaping inside the quotes.
 */

/**
 * A quota unit beyond the draft's default `requests`: `concurrent-requests` is the draft's,
 * `worker-ms` the hub's (worker milliseconds; no registered unit says it).
 */
export type QuotaUnit = 'worker-ms' | 'concurrent-requests';

/** One item of RateLimit-Policy: `q` units (`qu`, requests when absent) per `w` seconds (none for a cap). */
export interface PolicyItem {
  name: string;
  q: number;
  qu?: QuotaUnit;
  w?: number;
}

/** One item of RateLimit: `r` units left, `t` seconds until more are made available (none for a cap). */
export interface LimitItem {
  name: string;
  r: number;
  t?: number;
}

export function policyField(items: readonly PolicyItem[]): string {
  return items
    .map((p) => `"${p.name}";q=${p.q}${p.qu ? `;qu="${p.qu}"` : ''}${p.w === undefined ? '' : `;w=${p.w}`}`)
    .join(', ');
}

export function limitField(items: readonly LimitItem[]): string {
  return items.map((l) => `"${l.name}";r=${l.r}${l.t === undefined ? '' : `;t=${l.t}`}`).join(', ');
}

/** A rate limit: every attempt counts, and `q` is what a fresh client may make per window, the burst included (as `r` counts it). */
export function ratePolicy(name: string, limit: number, burst: number, windowSec: number): PolicyItem {
  return { name, q: limit + Math.max(0, burst), w: windowSec };
}

/**
 * A quota: runs (requests) or worker ms per UTC day or month; `w` is the calendar window's
 * length, the current month's for a month (its end is the item's `t` in RateLimit).
 */
export function quotaPolicy(
  name: string,
  window: QuotaWindow,
  kind: QuotaKind,
  limit: number,
  now: number,
): PolicyItem {
  const w = window === 'day' ? 86_400 : monthSeconds(now);
  return kind === 'runs' ? { name, q: limit, w } : { name, q: limit, qu: 'worker-ms', w };
}

/** The length in seconds of the UTC month that holds `now`. */
export function monthSeconds(now: number): number {
  const d = new Date(now);
  return (monthEndOf(now) - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)) / 1000;
}

/** Seconds until `ms` have passed, as `t` and Retry-After count them. */
export const secondsOf = (ms: number): number => Math.ceil(Math.max(0, ms) / 1000);

/**
 * The fields of one answer that speaks for many runs (a batch request): every limit any run
 * listed, once, and for each limit reported the fewest units left (the counters only grow
 * within a window, so the fewest is the latest), the fewest first.
 */
export function mergedFields(
  reports: readonly { policyItems: readonly PolicyItem[]; limitItems: readonly LimitItem[] }[],
): Record<string, string> {
  const listed = new Map<string, PolicyItem>();
  const least = new Map<string, LimitItem>();
  for (const report of reports) {
    for (const p of report.policyItems) if (!listed.has(p.name)) listed.set(p.name, p);
    for (const l of report.limitItems) {
      const seen = least.get(l.name);
      if (!seen || l.r < seen.r) least.set(l.name, l);
    }
  }
  if (listed.size === 0) return {};
  const fewestFirst = [...least.values()].sort((x, y) => x.r - y.r);
  return { 'RateLimit-Policy': policyField([...listed.values()]), RateLimit: limitField(fewestFirst) };
}
