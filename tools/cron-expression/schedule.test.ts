import { describe, expect, it } from 'vitest';
import { checkInput, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import { nextRuns, resolveFrom, SEARCH_BUDGET_MS } from './schedule.js';
import def, { DEFAULT_COUNT, DEFAULT_TIMEZONE } from './tool.js';

const parse = (input: Record<string, unknown>) => toolRunner(def, run)(input, 'parse');
const DEFAULTS = { timezone: DEFAULT_TIMEZONE, count: DEFAULT_COUNT };

describe('cron-expression schedule bounds', () => {
  it('refuses a from date whose day does not exist instead of rolling it over', async () => {
    // The input schema's date-time format refuses the day before any run.
    for (const from of ['2025-02-30T00:00:00Z', '2025-04-31T12:00:00+02:00', '2025-02-29T00:00:00Z']) {
      await expectToolError(
        parse({ expression: '* * * * *', from }),
        'INVALID_INPUT',
        'from must match format',
      );
    }
    const leap = (await parse({ expression: '* * * * *', from: '2024-02-29T00:00:00Z' })) as { from: string };
    expect(leap.from).toBe('2024-02-29T00:00:00.000Z');
    expect(checkInput(def, { from: '0000-02-29T00:00:00Z' })).toEqual({
      from: '0000-02-29T00:00:00Z',
      ...DEFAULTS,
    });
    expect(resolveFrom('0000-02-29T00:00:00Z').getUTCDate()).toBe(29);
  });

  it('returns the runs found so far, with a note, once the search budget is spent', () => {
    // A fake clock that jumps past the budget on every read: deterministic on any machine.
    let now = 0;
    const clock = () => {
      now += SEARCH_BUDGET_MS + 1;
      return now;
    };
    const r = nextRuns('0 0 * 2 5#5', 'UTC', new Date('2025-01-01T00:00:00Z'), 50, clock);
    expect(r.nextRuns).toEqual(['2036-02-29T00:00:00Z']);
    expect(r.note).toMatch(/stopped after 1 runs: the schedule is too sparse/);
  });

  it('a dense schedule lists every run within the budget', () => {
    const r = nextRuns('* * * * *', 'UTC', new Date('2025-01-01T00:00:00Z'), 50);
    expect(r.nextRuns).toHaveLength(50);
    expect(r.note).toBeUndefined();
  });
});
