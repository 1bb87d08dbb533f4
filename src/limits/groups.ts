import { quotaBits } from '../config/quota.js';
import type { DecideReply, DecideRequest, QuotaCounts, ReleaseRequest } from './store.js';

// How a call to decide.lua or release.lua carries its requests: in groups the script works
// out at once, each request's answer read back from its group's (docs/architecture.md,
// "The limiter"). A busy client's turn is many requests alike; per request, Lua is slow.

/** Numbers decide.lua answers per group (its header lists them), and after them with a quota state. */
export const GROUP_REPLY = 16;
const QUOTA_COUNTS = 10;

/**
 * A call's decisions cut into groups for decide.lua: consecutive decisions alike (one key,
 * policy, points and admission) are one group, which the script works out at once; a policy
 * with quotas makes groups of one, as each admitted run moves its quota counts. Only
 * neighbours join, so the decisions are applied in the order they came.
 */
export function decisionGroups(reqs: readonly DecideRequest[]): DecideRequest[][] {
  const groups: DecideRequest[][] = [];
  let last: DecideRequest[] | undefined;
  for (const r of reqs) {
    const head = last?.[0];
    if (
      last &&
      head &&
      head.key === r.key &&
      head.policy === r.policy &&
      head.points === r.points &&
      head.admit === r.admit &&
      quotaBits(r.policy.quotas) === 0
    )
      last.push(r);
    else {
      last = [r];
      groups.push(last);
    }
  }
  return groups;
}

type GroupReply = [
  ...[n0: number, ttl: number, i0: number, bttl: number, allowed: number, spent: number],
  ...[used: number, pttl: number, c0: number, a0: number, c1: number, a1: number],
  ...[qs: number, qi: number, qused: number, qms: number],
];

/**
 * The reply of each decision of `groups`, from the flat script reply (decide.lua's `now` first,
 * then each group's numbers): what the steps of src/limits/decide.ts give one after another.
 */
export function expandGroups(groups: readonly DecideRequest[][], flat: readonly number[]): DecideReply[] {
  const out: DecideReply[] = [];
  let at = 1;
  for (const g of groups) {
    const tail = flat[at + 12] !== 0 ? QUOTA_COUNTS : 0;
    expandGroup(g[0]!, g.length, flat, at, tail, out);
    at += GROUP_REPLY + tail;
  }
  return out;
}

/** The replies of a group's `k` decisions, from its numbers at `at` (and `tail` after them), onto `out`. */
function expandGroup(
  r: DecideRequest,
  k: number,
  flat: readonly number[],
  at: number,
  tail: number,
  out: DecideReply[],
): void {
  const [n0, ttl, i0, bttl, allowed, spent, used, pttl, c0, a0, c1, a1, qs, qi, qused, qms] = flat.slice(
    at,
    at + GROUP_REPLY,
  ) as GroupReply;
  const counts = flat.slice(at + GROUP_REPLY, at + GROUP_REPLY + tail) as QuotaCounts;
  const p = r.points;
  // The budget as read for the admissions: the same for every admitted decision of the group.
  const [budgetUsed, budgetPttl] = qs >= 2 ? [0, -2] : [used, pttl];
  for (let i = 1; i <= k; i++) {
    const consumed = p > 0 ? n0 + i * p : 0;
    const ms = p > 0 && i >= i0 ? Math.min(ttl, bttl) : ttl;
    const ok = i <= allowed;
    if (!ok || !r.admit) {
      out.push([consumed, ms, ok ? 1 : 0, 0, -2, 0, 0, -1, 0, 0]);
      continue;
    }
    let leases = 0;
    if (qs < 2 && spent === 0) leases = i <= a0 ? c0 + i : i <= a0 + a1 ? c1 + (i - a0) : -1;
    const head: DecideReply = [consumed, ms, 1, budgetUsed, budgetPttl, leases, qs, qi, qused, qms];
    out.push(qs === 0 ? head : [...head, ...counts]);
  }
}

/**
 * Releases of one client and tool with the same budget window and quotas, in order: release.lua
 * charges each group's summed worker time once and gives its leases back with one ZREM.
 */
export function releaseGroups(reqs: readonly ReleaseRequest[]): ReleaseRequest[][] {
  const groups = new Map<string, ReleaseRequest[]>();
  for (const r of reqs) {
    const id = `${r.key}\n${r.windowMs}\n${r.quotas}`;
    const group = groups.get(id);
    if (group) group.push(r);
    else groups.set(id, [r]);
  }
  return [...groups.values()];
}

export function sumCharged(group: readonly ReleaseRequest[]): number {
  let ms = 0;
  for (const r of group) ms += r.chargedMs;
  return ms;
}
