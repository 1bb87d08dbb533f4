import { describe, expect, it } from 'vitest';
import { specOf, toolRunner } from '../_shared/test-helpers.js';
import type { MatchBudget } from './exec-all.js';
import { listMatches } from './matches.js';
import run, { MATCH_BUDGET_MS } from './run.js';
import { replaceBounded } from './substitute.js';
import tool from './tool.js';

const regexTester = toolRunner(tool, run);
/** A budget already spent: the iteration stops after its first exec. */
const spent = (): MatchBudget => ({ deadline: performance.now() - 1, timedOut: false });

describe('regex-tester match budget (timedOut apart from no match)', () => {
  it('a global match out of budget gives the matches found so far, timedOut and truncated', () => {
    const r = listMatches(/a/g, 'a-a-a', spent());
    expect(r).toMatchObject({ count: 1, truncated: true, timedOut: true });
    expect(r.matches.map((m) => m.index)).toEqual([0]);
  });

  it('no match is not a time-out', () => {
    expect(listMatches(/z/g, 'a-a-a', spent())).toEqual({
      matches: [],
      count: 0,
      truncated: false,
      timedOut: false,
    });
  });

  it('without g the one exec always completes', () => {
    expect(listMatches(/a/, 'a-a-a', spent())).toMatchObject({ count: 1, truncated: false, timedOut: false });
  });

  it('a global replace out of budget replaces the matches found so far and keeps the rest', () => {
    expect(replaceBounded(/a/g, 'a-a-a', 'b', spent())).toEqual({
      output: 'b-a-a',
      replacements: 1,
      timedOut: true,
    });
    expect(replaceBounded(/a/g, 'a-a-a', 'b')).toEqual({ output: 'b-b-b', replacements: 3, timedOut: false });
  });

  it('match and replace results say timedOut: false when complete; test and split have no such field', async () => {
    expect(await regexTester({ pattern: '/a/g', text: 'aa' }, 'match')).toMatchObject({
      count: 2,
      timedOut: false,
    });
    expect(await regexTester({ pattern: '/a/g', text: 'aa', replacement: 'b' }, 'replace')).toMatchObject({
      output: 'bb',
      timedOut: false,
    });
    expect(await regexTester({ pattern: 'a', text: 'aa' }, 'test')).not.toHaveProperty('timedOut');
    expect(await regexTester({ pattern: 'a', text: 'bab' }, 'split')).not.toHaveProperty('timedOut');
  });

  it('the budget leaves a quarter of the run deadline for the answer', () => {
    expect(MATCH_BUDGET_MS).toBe(specOf(tool).policy.timeoutMs * 0.75);
  });
});
