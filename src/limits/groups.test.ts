import { describe, expect, it } from 'vitest';
import { NO_QUOTAS } from '../config/quota.js';
import { decisionGroups, releaseGroups } from './groups.js';
import type { DecideRequest, StorePolicy } from './store.js';

/**
 * How a call's decisions are cut into groups (src/limits/groups.ts); what a group
 * answers is checked against the in-process store in src/limits/stores.test.ts.
 */
const plain: StorePolicy = {
  tier: '',
  limit: 5,
  burst: 1,
  windowMs: 1000,
  budgetMs: 100,
  cap: 2,
  leaseMs: 1000,
  reserveMs: 100,
  quotas: NO_QUOTAS,
};
const quota: StorePolicy = { ...plain, quotas: [3, -1, -1, -1, -1, -1, -1, -1] };
let ids = 0;
const d = (key: string, over: Partial<DecideRequest> = {}): DecideRequest => ({
  key,
  quotaKey: `${key}:q`,
  policy: plain,
  points: 1,
  admit: true,
  leaseId: `${ids++}`,
  ...over,
});
const shape = (groups: DecideRequest[][]) => groups.map((g) => `${g[0]!.key}×${g.length}`);

describe('decision groups', () => {
  it('joins neighbours alike, in order, and never a decision that comes back after another', () => {
    const reqs = [d('a'), d('a'), d('a'), d('b'), d('a'), d('a', { admit: false }), d('a', { admit: false })];
    expect(shape(decisionGroups(reqs))).toEqual(['a×3', 'b×1', 'a×1', 'a×2']);
    expect(decisionGroups(reqs).flat()).toEqual(reqs);
  });

  it('keeps apart decisions of other points or policies, and puts a policy with quotas alone', () => {
    const reqs = [
      d('a'),
      d('a', { points: 2 }),
      d('a', { policy: { ...plain } }),
      d('a', { policy: quota }),
      d('a', { policy: quota }),
    ];
    expect(shape(decisionGroups(reqs))).toEqual(['a×1', 'a×1', 'a×1', 'a×1', 'a×1']);
  });
});

describe('release groups', () => {
  it('groups one key with one window and quota bits, in the order each first came', () => {
    const r = (key: string, windowMs: number, quotas = 0) => ({
      key,
      quotaKey: `${key}:q`,
      leaseId: `${ids++}`,
      chargedMs: 3,
      windowMs,
      quotas,
    });
    const groups = releaseGroups([r('a', 1000), r('b', 1000), r('a', 1000), r('a', 2000), r('a', 1000, 1)]);
    expect(groups.map((g) => `${g[0]!.key}/${g[0]!.windowMs}/${g[0]!.quotas}×${g.length}`)).toEqual([
      'a/1000/0×2',
      'b/1000/0×1',
      'a/2000/0×1',
      'a/1000/1×1',
    ]);
  });
});
