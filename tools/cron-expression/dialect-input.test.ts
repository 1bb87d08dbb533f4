/**
 * Dialects: DST rules as each scheduler documents them, bad input on the new options, and
 * the new fields on every surface the hub derives from tool.ts.
 */
import { describe, expect, it } from 'vitest';
import { expectToolError, specOf, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool, { DIALECTS } from './tool.js';

type Result = Record<string, unknown> & { nextRuns: string[] };
const cron = toolRunner(tool, run);
const parse = async (input: Record<string, unknown>) => (await cron(input, 'parse')) as Result;
const NY = 'America/New_York';

describe('DST per dialect (America/New_York, 2025: 9 March 02:00 → 03:00, 2 November 02:00 → 01:00)', () => {
  it('Quartz CronTrigger: a daily 02:30 is skipped on the spring-forward day (documented)', async () => {
    const r = await parse({
      expression: '0 30 2 * * ?',
      dialect: 'quartz',
      timezone: NY,
      count: 3,
      from: '2025-03-08T12:00:00Z',
    });
    expect(r.nextRuns).toEqual([
      '2025-03-10T02:30:00-04:00',
      '2025-03-11T02:30:00-04:00',
      '2025-03-12T02:30:00-04:00',
    ]);
  });

  it('Quartz CronTrigger: every 15 minutes fires once through the repeated hour (documented: no second pass)', async () => {
    const r = await parse({
      expression: '0 0/15 * * * ?',
      dialect: 'quartz',
      timezone: NY,
      count: 6,
      from: '2025-11-02T05:20:00Z', // 01:20 EDT
    });
    expect(r.nextRuns).toEqual([
      '2025-11-02T01:30:00-04:00',
      '2025-11-02T01:45:00-04:00',
      '2025-11-02T02:00:00-05:00',
      '2025-11-02T02:15:00-05:00',
      '2025-11-02T02:30:00-05:00',
      '2025-11-02T02:45:00-05:00',
    ]);
  });

  it('EventBridge Scheduler: a skipped time does not run, a repeated one runs once (documented)', async () => {
    const spring = await parse({
      expression: 'cron(30 2 * * ? *)',
      timezone: NY,
      count: 2,
      from: '2025-03-08T12:00:00Z',
    });
    expect(spring.nextRuns).toEqual(['2025-03-10T02:30:00-04:00', '2025-03-11T02:30:00-04:00']);
    expect(spring.assumption).toMatch(/EventBridge Scheduler/);
    const fall = await parse({
      expression: 'cron(30 1 * * ? *)',
      timezone: NY,
      count: 2,
      from: '2025-11-01T12:00:00Z',
    });
    expect(fall.nextRuns).toEqual(['2025-11-02T01:30:00-04:00', '2025-11-03T01:30:00-05:00']);
  });

  it('Unix keeps its rules: the skipped 02:30 runs at 03:30, an hourly job runs in both passes', async () => {
    const spring = await parse({
      expression: '30 2 * * *',
      timezone: NY,
      count: 1,
      from: '2025-03-08T12:00:00Z',
    });
    expect(spring.nextRuns).toEqual(['2025-03-09T03:30:00-04:00']);
    const fall = await parse({
      expression: '0 * * * *',
      timezone: NY,
      count: 3,
      from: '2025-11-02T04:30:00Z',
    });
    expect(fall.nextRuns).toEqual([
      '2025-11-02T01:00:00-04:00',
      '2025-11-02T01:00:00-05:00',
      '2025-11-02T02:00:00-05:00',
    ]);
  });

  it('rate() counts fixed durations: a day is 24 hours across the change', async () => {
    const r = await parse({
      expression: 'rate(1 day)',
      timezone: NY,
      count: 2,
      from: '2025-03-08T17:00:00Z',
    });
    expect(r.nextRuns).toEqual(['2025-03-09T13:00:00-04:00', '2025-03-10T13:00:00-04:00']);
  });
});

describe('bad input on the dialect options', () => {
  const FROM = '2025-03-07T12:00:00Z';
  const invalid = async (input: Record<string, unknown>, field: string | null, message: RegExp) => {
    const r = await parse({ from: FROM, ...input });
    expect(r, JSON.stringify(r)).toMatchObject({ valid: false, field, nextRuns: [], description: null });
    expect(r.error as string).toMatch(message);
    expect((r.error as string).length).toBeLessThan(300);
  };

  it('an unknown dialect is UNSUPPORTED_OPTION (enum)', async () => {
    await expectToolError(
      parse({ expression: '* * * * *', dialect: 'jenkins' }),
      'UNSUPPORTED_OPTION',
      /dialect is not supported; supported: unix, quartz, eventbridge/,
    );
  });

  it('a Quartz or EventBridge expression without ? where required, or with two', async () => {
    await invalid(
      { expression: '0 0 12 * * *', dialect: 'quartz' },
      'dayOfWeek',
      /Quartz requires '\?' in dayOfMonth or dayOfWeek/,
    );
    await invalid({ expression: '0 0 12 1 * MON 2026', dialect: 'quartz' }, 'dayOfMonth', /requires '\?'/);
    // Not named: seven fields without '?' stay Unix, whose answer says how to read them as Quartz.
    await invalid(
      { expression: '0 0 12 1 * MON 2026' },
      null,
      /expression has 7 fields.*needs '\?'.*dialect quartz/,
    );
    await invalid({ expression: 'cron(0 10 * * * *)' }, 'dayOfWeek', /EventBridge requires '\?'/);
    await invalid({ expression: 'cron(0 10 ? * ? *)' }, 'dayOfWeek', /only one of dayOfMonth and dayOfWeek/);
  });

  it('rate(): unit, value, singular and plural', async () => {
    await invalid(
      { expression: 'rate(5 weeks)' },
      null,
      /rate unit 'weeks' is not supported; use minute\(s\), hour\(s\) or day\(s\)/,
    );
    await invalid({ expression: 'rate(5 Minutes)' }, null, /rate unit 'Minutes' is not supported/);
    await invalid({ expression: 'rate(0 minutes)' }, null, /must be a whole number from 1/);
    await invalid({ expression: 'rate(1.5 hours)' }, null, /whole number/);
    await invalid({ expression: 'rate(1 hours)' }, null, /must use the singular: rate\(1 hour\)/);
    await invalid({ expression: 'rate(5 minute)' }, null, /must use the plural: rate\(5 minutes\)/);
    await invalid({ expression: 'rate(5)' }, null, /takes a value and a unit/);
    await invalid({ expression: 'rate(5 minutes' }, null, /malformed EventBridge expression/);
  });

  it('years out of range, and other field errors named by field', async () => {
    await invalid({ expression: '0 0 12 ? * * 1969' }, 'year', /1969 is out of range 1970-2099/);
    await invalid({ expression: '0 0 12 ? * * 2100' }, 'year', /2100 is out of range 1970-2099/);
    await invalid({ expression: 'cron(0 12 ? * * 2200)' }, 'year', /2200 is out of range 1970-2199/);
    await invalid({ expression: '0 0 12 ? * * 20x5' }, 'year', /'20x5' is not a year/);
    await invalid(
      { expression: '0 0 12 ? * 0', dialect: 'quartz' },
      'dayOfWeek',
      /0 is out of range 1-7 \(1 = SUN, 7 = SAT\)/,
    );
    await invalid({ expression: '0 0 12 ? * 6#6 *' }, 'dayOfWeek', /occurrence after # must be 1 to 5/);
    await invalid({ expression: '0 0 12 32W * ? *' }, 'dayOfMonth', /32W: 32 is out of range 1-31/);
    await invalid({ expression: '0 0 12 31W 2 ? *' }, 'dayOfMonth', /never occurs/);
    await invalid({ expression: '0 0 12 30 2 ? *' }, 'dayOfMonth', /day 30 never occurs in month 2/);
    await invalid({ expression: '0 61 12 ? * * *' }, 'minute', /61 is out of range 0-59/);
    await invalid({ expression: 'cron(0 10 * * ?)' }, null, /EventBridge cron has 5 fields; expected 6/);
    await invalid({ expression: '0 10 * * ? * * *', dialect: 'quartz' }, null, /expected 6 .* or 7/);
  });

  it('a year with no run left lists no runs and says why', async () => {
    const r = await parse({ expression: '0 15 10 * * ? 2005', from: FROM, count: 3 });
    expect(r).toMatchObject({
      valid: true,
      nextRuns: [],
      note: 'stopped after 0 runs: the schedule has no run after its last year, 2005',
    });
  });

  it('options of another mode are refused, not ignored', async () => {
    await expectToolError(
      parse({ expression: '* * * * *', to: 'quartz' }),
      'INVALID_INPUT',
      /to is only for convert mode/,
    );
    await expectToolError(
      cron({ fields: { hour: 9 }, dialect: 'quartz' }, 'build'),
      'INVALID_INPUT',
      /not for build mode/,
    );
  });
});

describe('Unix answers are unchanged', () => {
  it('a Unix expression without a named dialect carries no dialect field; naming it adds only that', async () => {
    const input = { expression: '*/15 9-17 * * 1-5', count: 2, from: '2025-03-07T12:00:00Z' };
    const plain = await parse(input);
    expect(plain).not.toHaveProperty('dialect');
    expect(Object.keys(plain)).toEqual([
      'valid',
      'expression',
      'macro',
      'description',
      'fields',
      'hasSeconds',
      'timezone',
      'from',
      'nextRuns',
    ]);
    const named = await parse({ ...input, dialect: 'unix' });
    const { dialect, ...rest } = named;
    expect(dialect).toBe('unix');
    expect(rest).toEqual(plain);
  });

  it('six fields stay Unix (seconds first, day of week 0-6) unless quartz is named', async () => {
    const unix = await parse({ expression: '0 15 10 ? * 6L', count: 1, from: '2025-03-07T12:00:00Z' });
    expect(unix.nextRuns).toEqual(['2025-03-29T10:15:00Z']); // last Saturday
    const quartz = await parse({
      expression: '0 15 10 ? * 6L',
      dialect: 'quartz',
      count: 1,
      from: '2025-03-07T12:00:00Z',
    });
    expect(quartz.nextRuns).toEqual(['2025-03-28T10:15:00Z']); // last Friday
  });
});

describe('the new options on the derived surfaces', () => {
  it('dialect and to are named input fields (dedicated endpoints, MCP inputSchema, page form)', () => {
    const properties = specOf(tool).input.properties as Record<string, { enum?: unknown }>;
    expect(properties.dialect?.enum).toEqual([...DIALECTS]);
    expect(properties.to?.enum).toEqual([...DIALECTS]);
    expect(specOf(tool).semanticFields?.dialect).toMatch(/quartz/);
    expect(specOf(tool).semanticFields?.to).toMatch(/Convert mode/);
  });

  it('convert is a mode with its own dedicated endpoint, and `to` is its generic b', () => {
    expect(specOf(tool).modes).toContain('convert');
    expect(specOf(tool).endpoints.find((e) => e.mode === 'convert')?.path).toBe(
      '/api/cron-expression/convert/',
    );
    expect(specOf(tool).fieldsByMode?.convert).toEqual({ b: 'to' });
  });
});
