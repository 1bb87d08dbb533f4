/**
 * Published examples of the Quartz and EventBridge dialects, with the meaning their
 * documentation gives. `says` are the facts of that meaning the description must state
 * (cronstrue's wording: "10:15 AM", "last Friday"); the next runs come from the oracles.
 */
import { describe, expect, it } from 'vitest';
import { declaredCases, seededRandom, toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import { awsRuns, cronerRuns } from './test-helpers.js';
import tool from './tool.js';

/** Quartz Scheduler, "CronTrigger Tutorial", table "Example Cron Expressions". */
const QUARTZ_TUTORIAL: { expression: string; meaning: string; says: string[]; from?: string }[] = [
  { expression: '0 0 12 * * ?', meaning: 'Fire at 12pm (noon) every day', says: ['12:00 PM'] },
  { expression: '0 15 10 ? * *', meaning: 'Fire at 10:15am every day', says: ['10:15 AM'] },
  { expression: '0 15 10 * * ?', meaning: 'Fire at 10:15am every day', says: ['10:15 AM'] },
  { expression: '0 15 10 * * ? *', meaning: 'Fire at 10:15am every day', says: ['10:15 AM'] },
  {
    expression: '0 15 10 * * ? 2005',
    meaning: 'Fire at 10:15am every day during the year 2005',
    says: ['10:15 AM', '2005'],
    from: '2004-12-30T00:00:00Z',
  },
  {
    expression: '0 * 14 * * ?',
    meaning: 'Fire every minute starting at 2pm and ending at 2:59pm, every day',
    says: ['Every minute', '02:00 PM', '02:59 PM'],
  },
  {
    expression: '0 0/5 14 * * ?',
    meaning: 'Fire every 5 minutes starting at 2pm and ending at 2:55pm, every day',
    says: ['Every 5 minutes', '02:00 PM'],
  },
  {
    expression: '0 0/5 14,18 * * ?',
    meaning: 'Fire every 5 minutes starting at 2pm and ending at 2:55pm, AND at 6pm to 6:55pm, every day',
    says: ['Every 5 minutes', '02:00 PM', '06:00 PM'],
  },
  {
    expression: '0 0-5 14 * * ?',
    meaning: 'Fire every minute starting at 2pm and ending at 2:05pm, every day',
    says: ['Every minute', '02:00 PM', '02:05 PM'],
  },
  {
    expression: '0 10,44 14 ? 3 WED',
    meaning: 'Fire at 2:10pm and at 2:44pm every Wednesday in the month of March',
    says: ['10 and 44 minutes past the hour', '02:00 PM', 'Wednesday', 'March'],
  },
  {
    expression: '0 15 10 ? * MON-FRI',
    meaning: 'Fire at 10:15am every Monday, Tuesday, Wednesday, Thursday and Friday',
    says: ['10:15 AM', 'Monday through Friday'],
  },
  {
    expression: '0 15 10 15 * ?',
    meaning: 'Fire at 10:15am on the 15th day of every month',
    says: ['10:15 AM', 'day 15'],
  },
  {
    expression: '0 15 10 L * ?',
    meaning: 'Fire at 10:15am on the last day of every month',
    says: ['10:15 AM', 'last day of the month'],
  },
  {
    expression: '0 15 10 L-2 * ?',
    meaning: 'Fire at 10:15am on the 2nd-to-last last day of every month',
    says: ['10:15 AM', '2 days before the last day'],
  },
  {
    expression: '0 15 10 ? * 6L',
    meaning: 'Fire at 10:15am on the last Friday of every month',
    says: ['10:15 AM', 'last Friday'],
  },
  {
    expression: '0 15 10 ? * 6L 2002-2005',
    meaning: 'Fire at 10:15am on every last friday of every month during the years 2002, 2003, 2004 and 2005',
    says: ['10:15 AM', 'last Friday', '2002 through 2005'],
    from: '2001-06-01T00:00:00Z',
  },
  {
    expression: '0 15 10 ? * 6#3',
    meaning: 'Fire at 10:15am on the third Friday of every month',
    says: ['10:15 AM', 'third Friday'],
  },
  {
    expression: '0 0 12 1/5 * ?',
    meaning: 'Fire at 12pm (noon) every 5 days every month, starting on the first day of the month',
    says: ['12:00 PM', 'every 5 days'],
  },
  {
    expression: '0 11 11 11 11 ?',
    meaning: 'Fire every November 11th at 11:11am',
    says: ['11:11 AM', 'day 11', 'November'],
  },
];

/** AWS, "Amazon EventBridge: cron expressions reference" / EventBridge Scheduler "Schedule types": examples. */
const EVENTBRIDGE_EXAMPLES: { expression: string; meaning: string; says: string[] }[] = [
  { expression: 'cron(0 10 * * ? *)', meaning: 'Run at 10:00 am (UTC+0) every day', says: ['10:00 AM'] },
  { expression: 'cron(15 12 * * ? *)', meaning: 'Run at 12:15 pm (UTC+0) every day', says: ['12:15 PM'] },
  {
    expression: 'cron(0 18 ? * MON-FRI *)',
    meaning: 'Run at 6:00 pm (UTC+0) every Monday through Friday',
    says: ['06:00 PM', 'Monday through Friday'],
  },
  {
    expression: 'cron(0 8 1 * ? *)',
    meaning: 'Run at 8:00 am (UTC+0) every 1st day of the month',
    says: ['08:00 AM', 'day 1'],
  },
  { expression: 'cron(0/15 * * * ? *)', meaning: 'Run every 15 minutes', says: ['Every 15 minutes'] },
  {
    expression: 'cron(0/10 * ? * MON-FRI *)',
    meaning: 'Run every 10 minutes Monday through Friday',
    says: ['Every 10 minutes', 'Monday through Friday'],
  },
  {
    expression: 'cron(0/5 8-17 ? * MON-FRI *)',
    meaning: 'Run every 5 minutes Monday through Friday between 8:00 am and 5:55 pm (UTC+0)',
    says: ['Every 5 minutes', '08:00 AM', 'Monday through Friday'],
  },
  {
    expression: 'cron(0 9 ? * 2#1 *)',
    meaning: 'Run at 9:00 am (UTC) on the first Monday of each month',
    says: ['09:00 AM', 'first Monday'],
  },
];

/** AWS EventBridge rate expressions as documented (value, unit; singular for 1). */
const EVENTBRIDGE_RATES: { expression: string; minutes: number; says: string }[] = [
  { expression: 'rate(1 minute)', minutes: 1, says: 'Every minute' },
  { expression: 'rate(5 minutes)', minutes: 5, says: 'Every 5 minutes' },
  { expression: 'rate(1 hour)', minutes: 60, says: 'Every hour' },
  { expression: 'rate(12 hours)', minutes: 720, says: 'Every 12 hours' },
  { expression: 'rate(1 day)', minutes: 1440, says: 'Every day' },
  { expression: 'rate(7 days)', minutes: 10080, says: 'Every 7 days' },
];

const FROM = '2025-03-07T12:00:00Z';
const COUNT = 12;
type Result = Record<string, unknown> & { nextRuns: string[]; description: string | null };
const cron = toolRunner(tool, run);
const parse = async (input: Record<string, unknown>) =>
  (await cron({ from: FROM, count: COUNT, ...input }, 'parse')) as Result;
const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

describe('Quartz: the CronTrigger tutorial examples', () => {
  it.each(QUARTZ_TUTORIAL)('$expression: $meaning', async ({ expression, says, from = FROM }) => {
    const r = await parse({ expression, from, dialect: 'quartz' });
    expect(r.valid, JSON.stringify(r)).toBe(true);
    expect(r.dialect).toBe('quartz');
    for (const fact of says) expect(r.description).toContain(fact);
    // croner has no L-n; aws-cron-parser has (the same day rules, without seconds).
    const oracle = expression.includes('L-')
      ? awsRuns(expression.split(' ').slice(1).concat('*').join(' '), from, COUNT)
      : cronerRuns(expression, from, COUNT);
    expect(r.nextRuns).toEqual(oracle);
    expect(r.nextRuns.length).toBeGreaterThan(0);
    // Auto-detection: 7 fields with '?' are Quartz without naming the dialect.
    if (expression.split(' ').length === 7)
      expect((await parse({ expression, from })).nextRuns).toEqual(r.nextRuns);
  });
});

describe('EventBridge: the AWS cron examples', () => {
  it.each(EVENTBRIDGE_EXAMPLES)('$expression: $meaning', async ({ expression, says }) => {
    const r = await parse({ expression });
    expect(r.valid, JSON.stringify(r)).toBe(true);
    expect(r.dialect).toBe('eventbridge');
    for (const fact of says) expect(r.description).toContain(fact);
    const expected = awsRuns(expression, FROM, COUNT);
    expect(r.nextRuns).toEqual(expected);
    // croner agrees too, given the same schedule as Quartz (second 0).
    const inner = /^cron\((.*)\)$/.exec(expression)?.[1] as string;
    expect(cronerRuns(`0 ${inner}`, FROM, COUNT)).toEqual(expected);
    // The six fields alone, with the dialect named, are the same schedule.
    expect((await parse({ expression: inner, dialect: 'eventbridge' })).nextRuns).toEqual(expected);
  });
});

describe('EventBridge rate()', () => {
  it.each(EVENTBRIDGE_RATES)('$expression', async ({ expression, minutes, says }) => {
    const r = await parse({ expression, count: 3 });
    expect(r.valid).toBe(true);
    expect(r.fields).toBeNull();
    expect(r.description).toContain(says);
    const start = Date.parse(FROM);
    expect(r.nextRuns).toEqual([1, 2, 3].map((k) => iso(new Date(start + k * minutes * 60_000))));
    expect(r.assumption).toMatch(/start date/);
  });
});

/** A random Quartz expression: steps, ranges, lists, and every day rule (L, LW, nW, nL, n#k), with or without years. */
function quartzExpression(rnd: () => number): string {
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)] as T;
  const time = (max: number) =>
    pick([
      () => String(int(0, max)),
      () => `${int(0, max)}/${int(2, 20)}`,
      () => `*/${int(2, 20)}`,
      () => {
        const a = int(0, max - 3);
        return `${a}-${a + int(1, 3)}`;
      },
      () => [...new Set([int(0, max), int(0, max)])].sort((x, y) => x - y).join(','),
    ])();
  const dom = pick([
    '*',
    String(int(1, 28)),
    `${int(1, 28)}W`,
    'L',
    'LW',
    `${int(1, 10)}/${int(2, 7)}`,
    '1-15',
  ]);
  const dow = pick([
    '*',
    String(int(1, 7)),
    `${int(1, 7)}L`,
    `${int(1, 7)}#${int(1, 4)}`,
    'MON-FRI',
    '2-6',
    '1,7',
  ]);
  const dayOfMonthFree = rnd() < 0.5;
  const month = pick(['*', '*', String(int(1, 12)), `${int(1, 12)}/${int(2, 4)}`, 'JAN-JUN']);
  const year = pick(['', '', '*', '2025-2027', '2026', '2025/2', '2025,2030']);
  return [
    String(int(0, 59)),
    time(59),
    time(23),
    dayOfMonthFree ? '?' : dom,
    month,
    dayOfMonthFree ? dow : '?',
    ...(year ? [year] : []),
  ].join(' ');
}

const RANDOM_QUARTZ = 150;
const RANDOM_EVENTBRIDGE = 150;

describe('random Quartz expressions agree with croner (seeded)', () => {
  it(`${RANDOM_QUARTZ} expressions, ${COUNT} runs each, in UTC`, async () => {
    const rnd = seededRandom(20251107); // the same expressions every run
    let compared = 0;
    for (let i = 0; i < RANDOM_QUARTZ; i++) {
      const expression = quartzExpression(rnd);
      const r = await parse({ expression, dialect: 'quartz' });
      expect(r.valid, `${expression}: ${JSON.stringify(r)}`).toBe(true);
      expect(r.nextRuns, expression).toEqual(cronerRuns(expression, FROM, COUNT));
      compared++;
    }
    expect(compared).toBe(RANDOM_QUARTZ);
  });
});

describe('random EventBridge expressions agree with aws-cron-parser (seeded; croner for LW)', () => {
  it(`${RANDOM_EVENTBRIDGE} expressions, ${COUNT} runs each`, async () => {
    const rnd = seededRandom(20251108);
    let compared = 0;
    for (let i = 0; i < RANDOM_EVENTBRIDGE; i++) {
      // The Quartz generator less its seconds, the year always present (AWS requires it).
      const [, ...rest] = quartzExpression(rnd).split(' ');
      const fields = rest.length === 5 ? [...rest, '*'] : rest;
      const expression = `cron(${fields.join(' ')})`;
      const r = await parse({ expression });
      expect(r.valid, `${expression}: ${JSON.stringify(r)}`).toBe(true);
      // aws-cron-parser 1.1 fails on LW ("should not happen"): croner checks those.
      const oracle =
        fields[2] === 'LW'
          ? cronerRuns(`0 ${fields.join(' ')}`, FROM, COUNT)
          : awsRuns(expression, FROM, COUNT);
      expect(r.nextRuns, expression).toEqual(oracle);
      compared++;
    }
    expect(compared).toBe(RANDOM_EVENTBRIDGE);
  });
});

describe('conformance.json', () => {
  it('states the number of cases these tests run', () => {
    const declared = (suite: string) => declaredCases(import.meta.url, suite);
    expect(declared('Quartz CronTrigger tutorial')).toBe(QUARTZ_TUTORIAL.length);
    expect(declared('AWS EventBridge cron examples')).toBe(EVENTBRIDGE_EXAMPLES.length);
    expect(declared('AWS EventBridge rate() examples')).toBe(EVENTBRIDGE_RATES.length);
    expect(declared('Random Quartz expressions')).toBe(RANDOM_QUARTZ);
    expect(declared('Random EventBridge cron expressions')).toBe(RANDOM_EVENTBRIDGE);
  });
});
