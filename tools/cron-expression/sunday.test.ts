/**
 * Day of week 7 is Sunday, as 0 is, in Vixie cron and cronie: a list naming Sunday both ways
 * (`0,7`, `SUN,0`) or any value twice is valid and means it once; in Quartz and EventBridge
 * 1-7 is SUN-SAT (SKILL.md, "Dialects"). Runs are checked against croner and
 * aws-cron-parser, independent implementations; descriptions must name each day once.
 */
import { describe, expect, it } from 'vitest';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import { awsRuns, cronerRuns, cronerUnixRuns } from './test-helpers.js';
import tool from './tool.js';

const FROM = '2025-01-01T00:00:00Z';
const COUNT = 14;
type Result = Record<string, unknown> & { nextRuns: string[]; description: string | null };
const cron = toolRunner(tool, run);
const call = async (input: Record<string, unknown>, mode = 'parse') =>
  (await cron({ from: FROM, count: COUNT, ...input }, mode)) as Result;

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const weekdaysOf = (runs: string[]) => new Set(runs.map((iso) => DAYS[new Date(iso).getUTCDay()]));

/** The description names each day at most once and never a range from a day to itself. */
function namesEachDayOnce(description: string | null): void {
  expect(description).not.toBeNull();
  for (const day of DAYS) {
    expect(description?.split(day).length, `${day} in "${description}"`).toBeLessThanOrEqual(2);
  }
  expect(description).not.toMatch(/(\w+day) through \1/);
}

/** Unix day-of-week fields, the days Vixie cron runs them on (7 and 0 both Sunday), the description. */
const UNIX: [field: string, days: string[], description: string][] = [
  ['0,7', ['Sunday'], 'only on Sunday'],
  ['7,0', ['Sunday'], 'only on Sunday'],
  ['7', ['Sunday'], 'only on Sunday'],
  ['SUN,0', ['Sunday'], 'only on Sunday'],
  ['7,SUN', ['Sunday'], 'only on Sunday'],
  ['*/7', ['Sunday'], 'only on Sunday'],
  ['0-7', DAYS, 'Sunday through Saturday'],
  ['5-7', ['Friday', 'Saturday', 'Sunday'], 'Friday through Sunday'],
  ['0,5-7', ['Friday', 'Saturday', 'Sunday'], 'only on Sunday, Friday, and Saturday'],
  ['1-7/2', ['Monday', 'Wednesday', 'Friday', 'Sunday'], 'every 2 days of the week, Monday through Sunday'],
  ['0-7/2', ['Sunday', 'Tuesday', 'Thursday', 'Saturday'], 'only on Sunday, Tuesday, Thursday, and Saturday'],
  ['3/2', ['Wednesday', 'Friday', 'Sunday'], 'only on Sunday, Wednesday, and Friday'],
  ['1-5,3', DAYS.slice(1, 6), 'Monday through Friday'],
  ['0,7,1', ['Sunday', 'Monday'], 'only on Sunday and Monday'],
];

describe('Unix day of week: 7 is Sunday, accepted and meant once however it is written', () => {
  it.each(UNIX)('0 12 * * %s', async (field, days, description) => {
    const expression = `0 12 * * ${field}`;
    const r = await call({ expression });
    expect(r.valid, String(r.error)).toBe(true);
    expect(r.fields).toMatchObject({ dayOfWeek: field });
    expect(r.nextRuns).toEqual(cronerUnixRuns(expression, FROM, COUNT));
    expect(weekdaysOf(r.nextRuns)).toEqual(new Set(days));
    expect(r.description).toBe(`At 12:00 PM, ${description}`);
    namesEachDayOnce(r.description);
  });

  it('0 0 * * 0,7 is explained, run and listed exactly as 0 0 * * 0', async () => {
    const both = await call({ expression: '0 0 * * 0,7' });
    const sunday = await call({ expression: '0 0 * * 0' });
    expect(both.description).toBe('At 12:00 AM, only on Sunday');
    expect(both.nextRuns).toEqual(sunday.nextRuns);
  });

  it('a value named twice in any field is that value once, as in cron', async () => {
    const r = await call({ expression: '0,0 12 1,1 JAN,1 *', count: 2 });
    expect(r.valid, String(r.error)).toBe(true);
    expect(r.nextRuns).toEqual(['2025-01-01T12:00:00Z', '2026-01-01T12:00:00Z']);
    expect(r.description).toBe('At 12:00 PM, on day 1 of the month, only in January');
  });

  it('both day fields restricted: a day of month or Sunday, named once', async () => {
    const r = await call({ expression: '0 12 15 * 0,7', count: 6 });
    expect(r.nextRuns).toEqual(cronerUnixRuns('0 12 15 * 0', FROM, 6));
    expect(r.description).toBe('At 12:00 PM, on day 15 of the month, or on Sunday');
  });

  it.each([
    ['5-0', "malformed range in '5-0'"],
    ['FRI-SUN', "malformed range in 'FRI-SUN'"],
    ['8', '8 is out of range 0-7'],
    ['0,8', '8 is out of range 0-7'],
  ])('%s is refused as Vixie cron refuses it (SUN is 0: a range runs upwards)', async (field, message) => {
    const r = await call({ expression: `0 12 * * ${field}` });
    expect(r).toMatchObject({ valid: false, field: 'dayOfWeek' });
    expect(r.error).toContain(message);
  });

  it('build mode accepts Sunday as 0 and 7 and keeps the fields as given', async () => {
    const r = await call({ fields: { hour: 12, dayOfWeek: [0, 7] } }, 'build');
    expect(r.expression).toBe('0 12 * * 0,7');
    expect(r.description).toBe('At 12:00 PM, only on Sunday');
    expect(weekdaysOf(r.nextRuns)).toEqual(new Set(['Sunday']));
  });
});

describe('convert: Sunday named twice is written once', () => {
  it.each([
    ['0 12 * * 0,7', 'quartz', '0 0 12 ? * 1'],
    ['0 12 * * SUN,0', 'quartz', '0 0 12 ? * 1'],
    ['0 12 * * 7,SUN', 'eventbridge', 'cron(0 12 ? * 1 *)'],
    ['0 12 * * 0,5-7', 'eventbridge', 'cron(0 12 ? * 1,6,7 *)'],
    ['0 12 * * 1-5,MON', 'quartz', '0 0 12 ? * 2-6'],
  ])('%s → %s: %s', async (expression, to, expected) => {
    const r = await call({ expression, to }, 'convert');
    expect(r).toMatchObject({ valid: true, expression: expected, warnings: [] });
    expect(r.nextRuns).toEqual(cronerUnixRuns(expression, FROM, COUNT));
    namesEachDayOnce(r.description);
  });

  it('Quartz SUN,1 (Sunday twice) to Unix is 0', async () => {
    const r = await call({ expression: '0 0 12 ? * SUN,1', dialect: 'quartz', to: 'unix' }, 'convert');
    expect(r).toMatchObject({ expression: '0 12 * * 0', description: 'At 12:00 PM, only on Sunday' });
  });
});

describe('Quartz and EventBridge day of week: 1-7 = SUN-SAT', () => {
  it.each([
    ['1-7', DAYS],
    ['7', ['Saturday']],
    ['SUN,1', ['Sunday']],
    ['6-7,1', ['Friday', 'Saturday', 'Sunday']],
  ])('Quartz 0 0 12 ? * %s', async (field, days) => {
    const expression = `0 0 12 ? * ${field}`;
    const r = await call({ expression, dialect: 'quartz' });
    expect(r.valid, String(r.error)).toBe(true);
    expect(r.nextRuns).toEqual(cronerRuns(expression, FROM, COUNT));
    expect(weekdaysOf(r.nextRuns)).toEqual(new Set(days));
    namesEachDayOnce(r.description);
  });

  it('EventBridge cron(0 12 ? * SUN,1 *) runs on Sundays, described once', async () => {
    const expression = 'cron(0 12 ? * SUN,1 *)';
    const r = await call({ expression });
    expect(r.nextRuns).toEqual(awsRuns(expression, FROM, COUNT));
    expect(r.description).toBe('At 12:00 PM, only on Sunday');
  });

  it.each(['0', '8', '0,7'])('Quartz refuses %s (day of week is 1-7 there)', async (field) => {
    const r = await call({ expression: `0 0 12 ? * ${field}`, dialect: 'quartz' });
    expect(r).toMatchObject({ valid: false, field: 'dayOfWeek' });
    expect(r.error).toMatch(/is out of range 1-7/);
  });
});
