/**
 * Convert mode. Each conversion is checked against croner, an independent implementation:
 * the source expression in its dialect and the converted one in the target dialect must
 * run at the same times (when no warning says a part was dropped). Refusals are checked
 * for their code and message.
 */
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, seededRandom, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import { cronerRuns, cronerUnixRuns } from './test-helpers.js';
import tool from './tool.js';

const FROM = '2025-03-07T12:00:00Z';
const COUNT = 12;
type Result = Record<string, unknown> & { expression: string; warnings: string[]; nextRuns: string[] };
const cron = toolRunner(tool, run);
const convert = async (input: Record<string, unknown>) =>
  (await cron({ from: FROM, count: COUNT, ...input }, 'convert')) as unknown as Result;

/** Next runs of an expression in its dialect, by croner. */
function oracle(expression: string, dialect: string): string[] {
  if (dialect === 'unix') return cronerUnixRuns(expression, FROM, COUNT);
  const inner = /^cron\((.*)\)$/.exec(expression)?.[1];
  return cronerRuns(inner === undefined ? expression : `0 ${inner}`, FROM, COUNT);
}

const FAITHFUL: [source: string, to: string, expected: string][] = [
  ['*/15 9-17 * * 1-5', 'quartz', '0 0/15 9-17 ? * 2-6'],
  ['*/15 9-17 * * 1-5', 'eventbridge', 'cron(0/15 9-17 ? * 2-6 *)'],
  ['0 9 * * MON-FRI', 'eventbridge', 'cron(0 9 ? * MON-FRI *)'],
  ['30 2 1 * *', 'quartz', '0 30 2 1 * ?'],
  ['0 0 * * 0,6', 'quartz', '0 0 0 ? * 1,7'],
  ['0 0 * * 7', 'eventbridge', 'cron(0 0 ? * 1 *)'],
  ['0 12 * * */2', 'quartz', '0 0 12 ? * 1,3,5,7'],
  ['0 8 L * *', 'quartz', '0 0 8 L * ?'],
  ['0 8 * * 5L', 'eventbridge', 'cron(0 8 ? * 6L *)'],
  ['0 8 * * 1#2', 'quartz', '0 0 8 ? * 2#2'],
  ['15 30 6 * * *', 'quartz', '15 30 6 * * ?'],
  ['0 15 10 ? * 6#3', 'eventbridge', 'cron(15 10 ? * 6#3 *)'],
  ['0 0 12 1/5 * ?', 'unix', '0 12 1/5 * *'],
  ['0 15 10 ? * MON-FRI', 'unix', '15 10 * * MON-FRI'],
  ['0 0 9 ? * 2-6', 'unix', '0 9 * * 1-5'],
  ['0 0 9 ? * 1,7', 'unix', '0 9 * * 0,6'],
  ['cron(0 18 ? * MON-FRI *)', 'quartz', '0 0 18 ? * MON-FRI'],
  ['cron(0/5 8-17 ? * MON-FRI *)', 'unix', '0/5 8-17 * * MON-FRI'],
  ['cron(0 9 ? * 2#1 *)', 'unix', '0 9 * * 1#1'],
  ['cron(0 10 LW * ? *)', 'quartz', '0 0 10 LW * ?'],
  ['@daily', 'eventbridge', 'cron(0 0 * * ? *)'],
  ['@weekly', 'quartz', '0 0 0 ? * 1'],
];

describe('convert: faithful conversions run at the same times (croner on both sides)', () => {
  it.each(FAITHFUL)('%s → %s', async (source, to, expected) => {
    // Six fields are Unix unless the dialect is named: these six-field sources are Quartz.
    const quartz = !source.startsWith('cron(') && source.split(' ').length === 6 && source.includes('?');
    const r = await convert({ expression: source, to, ...(quartz ? { dialect: 'quartz' } : {}) });
    expect(r.valid).toBe(true);
    expect(r.expression).toBe(expected);
    expect(r.dialect).toBe(to);
    expect(r.original).toBe(source);
    const from = r.sourceDialect as string;
    const sourceText = source.startsWith('@') ? (source === '@daily' ? '0 0 * * *' : '0 0 * * 0') : source;
    expect(oracle(expected, to)).toEqual(oracle(sourceText, from));
    expect(r.nextRuns).toEqual(oracle(sourceText, from));
    // Only the L / # extensions going to Unix are worth a warning here.
    if (to !== 'unix' || !/[L#]/.test(expected)) expect(r.warnings).toEqual([]);
  });
});

describe('convert: what cannot be carried over is dropped with a warning', () => {
  it('seconds to EventBridge', async () => {
    const r = await convert({ expression: '30 15 10 ? * MON-FRI', dialect: 'quartz', to: 'eventbridge' });
    expect(r.expression).toBe('cron(15 10 ? * MON-FRI *)');
    expect(r.warnings).toEqual([expect.stringMatching(/^second '30' dropped/)]);
  });

  it('seconds to Unix stay as a 6-field expression, with a warning', async () => {
    const r = await convert({ expression: '*/10 0 12 * * ?', to: 'unix', dialect: 'quartz' });
    expect(r.expression).toBe('*/10 0 12 * * *');
    expect(r.warnings).toEqual([expect.stringMatching(/classic crontab has no seconds field/)]);
    expect(r.nextRuns).toEqual(cronerUnixRuns('*/10 0 12 * * *', FROM, COUNT));
  });

  it('years to Unix', async () => {
    const r = await convert({ expression: '0 15 10 ? * 6L 2025-2026', to: 'unix' });
    expect(r.expression).toBe('15 10 * * 5L');
    expect(r.warnings).toContainEqual(expect.stringMatching(/^year '2025-2026' dropped/));
    expect(r.warnings).toContainEqual(expect.stringMatching(/^dayOfWeek '5L' is an extension/));
  });

  it('rate() to cron when the period divides an hour or a day, aligned to the clock', async () => {
    const cases: [string, string, string][] = [
      ['rate(15 minutes)', 'unix', '*/15 * * * *'],
      ['rate(1 minute)', 'quartz', '0 * * * * ?'],
      ['rate(20 minutes)', 'quartz', '0 0/20 * * * ?'],
      ['rate(1 hour)', 'eventbridge', 'rate(1 hour)'],
      ['rate(60 minutes)', 'unix', '0 * * * *'],
      ['rate(6 hours)', 'unix', '0 */6 * * *'],
      ['rate(1 day)', 'quartz', '0 0 0 * * ?'],
      ['rate(24 hours)', 'unix', '0 0 * * *'],
    ];
    for (const [expression, to, expected] of cases) {
      const r = await convert({ expression, to });
      expect(r.expression, expression).toBe(expected);
      if (to !== 'eventbridge') expect(r.warnings[0]).toMatch(/fixed clock times/);
    }
  });
});

describe('convert: refused when nothing faithful is possible', () => {
  const refusals: [string, string, string | RegExp][] = [
    ['0 0 1 * 1', 'quartz', /dayOfMonth '1' OR dayOfWeek '1'/],
    ['0 0 13 * 5', 'eventbridge', /either-day rule/],
    ['cron(0 10 15W * ? *)', 'unix', /'15W' \(nearest weekday\) has no Unix equivalent/],
    ['0 0 10 LW * ? *', 'unix', /nearest weekday/],
    ['0 0 10 L-3 * ? *', 'unix', /days before the last/],
    ['rate(7 minutes)', 'unix', /every 7 minutes: it does not divide an hour evenly/],
    ['rate(90 minutes)', 'quartz', /does not divide a day evenly/],
    ['rate(5 hours)', 'eventbridge', /.^/], // placeholder replaced below
    ['rate(2 days)', 'unix', /longer than a day/],
    ['cron(0 10 * * ? 2150)', 'quartz', /year field: 2150 is out of range 1970-2099/],
  ];
  it.each(refusals.filter(([e]) => e !== 'rate(5 hours)'))('%s → %s', async (expression, to, message) => {
    await expectToolError(convert({ expression, to }), 'UNSUPPORTED_OPTION', message);
  });

  it('rate(5 hours) to Unix does not divide a day', async () => {
    await expectToolError(
      convert({ expression: 'rate(5 hours)', to: 'unix' }),
      'UNSUPPORTED_OPTION',
      /a day evenly/,
    );
  });
});

describe('convert: input', () => {
  it('needs `to`, refuses an unknown one and reports an invalid source as valid false', async () => {
    await expectToolError(convert({ expression: '* * * * *' }), 'INVALID_INPUT', /to is required/);
    await expectToolError(
      convert({ expression: '* * * * *', to: 'cobol' }),
      'UNSUPPORTED_OPTION',
      /to is not supported/,
    );
    const bad = await convert({ expression: '0 0 12 * * *', dialect: 'quartz', to: 'unix' });
    expect(bad).toMatchObject({ valid: false, field: 'dayOfWeek', sourceDialect: 'quartz', nextRuns: [] });
  });

  it('converting into the same dialect gives the expression back', async () => {
    const r = await convert({ expression: 'cron(0 10 * * ? *)', to: 'eventbridge' });
    expect(r).toMatchObject({ expression: 'cron(0 10 * * ? *)', warnings: [] });
  });
});

const RANDOM_CONVERSIONS = 100;

describe('convert: random Unix expressions to Quartz and EventBridge and back (croner, seeded)', () => {
  it(`${RANDOM_CONVERSIONS} expressions`, async () => {
    const rnd = seededRandom(20251126); // the same expressions every run
    const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
    let checked = 0;
    for (let i = 0; i < RANDOM_CONVERSIONS; i++) {
      const dayRule = pick(['none', 'dom', 'dow']);
      const unix = [
        pick(['0', '*/15', `${int(0, 59)}`, '5,35', '10-20/5']),
        pick(['*', `${int(0, 23)}`, '*/6', '9-17', '0,12']),
        dayRule === 'dom' ? pick([`${int(1, 28)}`, '1-7', '*/10', 'L']) : '*',
        pick(['*', '*', `${int(1, 12)}`, '*/3', 'JAN-MAR']),
        dayRule === 'dow'
          ? pick([
              `${int(0, 7)}`,
              '1-5',
              '*/2',
              '0,6',
              'MON-FRI',
              `${int(0, 6)}#${int(1, 4)}`,
              `${int(0, 6)}L`,
            ])
          : '*',
      ].join(' ');
      const expected = cronerUnixRuns(unix, FROM, COUNT);
      for (const to of ['quartz', 'eventbridge']) {
        const r = await convert({ expression: unix, to });
        expect(oracle(r.expression, to), `${unix} → ${r.expression}`).toEqual(expected);
        const back = await convert({ expression: r.expression, dialect: to, to: 'unix' });
        expect(cronerUnixRuns(back.expression, FROM, COUNT), `${r.expression} → ${back.expression}`).toEqual(
          expected,
        );
      }
      checked++;
    }
    expect(checked).toBe(RANDOM_CONVERSIONS);
  });
});

describe('conformance.json', () => {
  it('states the number of cases these tests run', () => {
    expect(declaredCases(import.meta.url, 'Dialect conversions')).toBe(FAITHFUL.length);
    expect(declaredCases(import.meta.url, 'Random Unix expressions converted')).toBe(RANDOM_CONVERSIONS);
  });
});
