/**
 * Next runs across DST shifts, in zones of every shape. The transition instants were read
 * with Intl (2026): Lord Howe +10:30 → +11:00 at 02:00 on 4 October (a 30-minute gap)
 * and +11:00 → +10:30 at 02:00 on 5 April (01:30-02:00 repeated); Sydney 02:00 → 03:00 on
 * 4 October and 03:00 → 02:00 on 5 April; Santiago 00:00 → 01:00 on 6 September and
 * 00:00 → 23:00 on 4/5 April; Chatham 02:45 → 03:45 on 27 September.
 */
import { describe, expect, it } from 'vitest';
import { nextRuns } from './schedule.js';

const runs = (expression: string, timeZone: string, from: string, count = 6) =>
  nextRuns(expression, timeZone, new Date(from), count);

describe('cron-expression runs across a 30-minute DST shift (Australia/Lord_Howe)', () => {
  const LH = 'Australia/Lord_Howe';

  it('spring-forward: runs after the gap exist and are listed, the skipped ones merge into them', () => {
    expect(runs('*/15 * * * *', LH, '2026-10-03T15:00:00Z', 4).nextRuns).toEqual([
      '2026-10-04T01:45:00+10:30',
      '2026-10-04T02:30:00+11:00',
      '2026-10-04T02:45:00+11:00',
      '2026-10-04T03:00:00+11:00',
    ]);
    expect(runs('* * * * *', LH, '2026-10-03T15:28:00Z', 3).nextRuns).toEqual([
      '2026-10-04T01:59:00+10:30',
      '2026-10-04T02:30:00+11:00',
      '2026-10-04T02:31:00+11:00',
    ]);
  });

  it('spring-forward: a skipped fixed time is moved forward by the 30-minute gap', () => {
    expect(runs('0 2 * * *', LH, '2026-10-03T12:00:00Z', 2).nextRuns).toEqual([
      '2026-10-04T02:30:00+11:00',
      '2026-10-05T02:00:00+11:00',
    ]);
    expect(runs('15 2 * * *', LH, '2026-10-03T12:00:00Z', 1).nextRuns).toEqual(['2026-10-04T02:45:00+11:00']);
  });

  it('fall-back: a fixed time in the repeated half hour runs once, at its first occurrence', () => {
    expect(runs('30 1 * * *', LH, '2026-04-04T12:00:00Z', 2).nextRuns).toEqual([
      '2026-04-05T01:30:00+11:00',
      '2026-04-06T01:30:00+10:30',
    ]);
    // `from` between the two passes: the first already happened, the repeat is not a run.
    expect(runs('45 1 * * *', LH, '2026-04-04T14:50:00Z', 1).nextRuns).toEqual(['2026-04-06T01:45:00+10:30']);
  });

  it('fall-back: hourly runs go on (no "loop limit exceeded"), wildcard minutes run in both passes', () => {
    const hourly = runs('0 * * * *', LH, '2026-04-04T13:00:00Z', 3);
    expect(hourly).toEqual({
      nextRuns: ['2026-04-05T01:00:00+11:00', '2026-04-05T02:00:00+10:30', '2026-04-05T03:00:00+10:30'],
    });
    expect(runs('*/15 * * * *', LH, '2026-04-04T14:00:00Z', 6).nextRuns).toEqual([
      '2026-04-05T01:15:00+11:00',
      '2026-04-05T01:30:00+11:00',
      '2026-04-05T01:45:00+11:00',
      '2026-04-05T01:30:00+10:30',
      '2026-04-05T01:45:00+10:30',
      '2026-04-05T02:00:00+10:30',
    ]);
    expect(runs('*/15 1 * * *', LH, '2026-04-04T14:40:00Z', 4).nextRuns).toEqual([
      '2026-04-05T01:45:00+11:00',
      '2026-04-05T01:30:00+10:30',
      '2026-04-05T01:45:00+10:30',
      '2026-04-06T01:00:00+10:30',
    ]);
    expect(runs('* * * * *', LH, '2026-04-04T14:58:00Z', 3).nextRuns).toEqual([
      '2026-04-05T01:59:00+11:00',
      '2026-04-05T01:30:00+10:30',
      '2026-04-05T01:31:00+10:30',
    ]);
  });

  it('a fixed wall time is never listed twice, and 2027 behaves like 2026', () => {
    expect(runs('0 2 * * *', LH, '2027-04-02T12:00:00Z', 2).nextRuns).toEqual([
      '2027-04-03T02:00:00+11:00',
      '2027-04-04T02:00:00+10:30',
    ]);
    expect(runs('0 2 * * *', LH, '2027-10-01T12:00:00Z', 2).nextRuns).toEqual([
      '2027-10-02T02:00:00+10:30',
      '2027-10-03T02:30:00+11:00',
    ]);
  });
});

describe('cron-expression runs across DST shifts in the southern hemisphere', () => {
  it('Australia/Sydney: 02:30 runs at 03:30 in October and once in April; hourly runs twice at 02:00', () => {
    expect(runs('30 2 * * *', 'Australia/Sydney', '2026-10-03T12:00:00Z', 2).nextRuns).toEqual([
      '2026-10-04T03:30:00+11:00',
      '2026-10-05T02:30:00+11:00',
    ]);
    expect(runs('30 2 * * *', 'Australia/Sydney', '2026-04-04T12:00:00Z', 2).nextRuns).toEqual([
      '2026-04-05T02:30:00+11:00',
      '2026-04-06T02:30:00+10:00',
    ]);
    expect(runs('0 * * * *', 'Australia/Sydney', '2026-04-04T14:30:00Z', 3).nextRuns).toEqual([
      '2026-04-05T02:00:00+11:00',
      '2026-04-05T02:00:00+10:00',
      '2026-04-05T03:00:00+10:00',
    ]);
  });

  it('America/Santiago: midnight is skipped in September (runs at 01:00) and repeated in April', () => {
    expect(runs('0 0 * * *', 'America/Santiago', '2026-09-05T12:00:00Z', 2).nextRuns).toEqual([
      '2026-09-06T01:00:00-03:00',
      '2026-09-07T00:00:00-03:00',
    ]);
    // 6 September 2026 is a Sunday: the shifted run keeps its day.
    expect(runs('0 0 * * 0', 'America/Santiago', '2026-09-05T12:00:00Z', 1).nextRuns).toEqual([
      '2026-09-06T01:00:00-03:00',
    ]);
    expect(runs('30 23 * * *', 'America/Santiago', '2026-04-04T12:00:00Z', 2).nextRuns).toEqual([
      '2026-04-04T23:30:00-03:00',
      '2026-04-05T23:30:00-04:00',
    ]);
    expect(runs('*/30 23 * * *', 'America/Santiago', '2026-04-04T12:00:00Z', 5).nextRuns).toEqual([
      '2026-04-04T23:00:00-03:00',
      '2026-04-04T23:30:00-03:00',
      '2026-04-04T23:00:00-04:00',
      '2026-04-04T23:30:00-04:00',
      '2026-04-05T23:00:00-04:00',
    ]);
  });

  it('Pacific/Chatham (+12:45/+13:45): times in the 02:45-03:45 gap move forward by an hour', () => {
    expect(runs('0 3 * * *', 'Pacific/Chatham', '2026-09-26T12:00:00Z', 2).nextRuns).toEqual([
      '2026-09-27T04:00:00+13:45',
      '2026-09-28T03:00:00+13:45',
    ]);
    expect(runs('*/15 * * * *', 'Pacific/Chatham', '2026-09-26T13:40:00Z', 3).nextRuns).toEqual([
      '2026-09-27T02:30:00+12:45',
      '2026-09-27T03:45:00+13:45',
      '2026-09-27T04:00:00+13:45',
    ]);
  });

  it('zones without DST keep their odd offsets (Asia/Kathmandu +05:45)', () => {
    expect(runs('0 0 * * *', 'Asia/Kathmandu', '2026-04-04T12:00:00Z', 1).nextRuns).toEqual([
      '2026-04-05T00:00:00+05:45',
    ]);
  });
});

describe('cron-expression seconds and day rules', () => {
  it('6-field: a fixed minute repeats its seconds in the first pass only; `*` minutes in both', () => {
    const fixed = runs('*/20 30 1 * * *', 'Australia/Lord_Howe', '2026-04-04T14:00:00Z', 4).nextRuns;
    expect(fixed).toEqual([
      '2026-04-05T01:30:00+11:00',
      '2026-04-05T01:30:20+11:00',
      '2026-04-05T01:30:40+11:00',
      '2026-04-06T01:30:00+10:30',
    ]);
    const wild = runs('0 * 1 * * *', 'Australia/Lord_Howe', '2026-04-04T14:58:30Z', 3).nextRuns;
    expect(wild).toEqual([
      '2026-04-05T01:59:00+11:00',
      '2026-04-05T01:30:00+10:30',
      '2026-04-05T01:31:00+10:30',
    ]);
  });

  it('dayOfMonth and dayOfWeek both restricted: a day matching either runs (0 0 31 4 5)', () => {
    // April has no day 31, so only its Fridays run; with AND there would be no run at all.
    expect(runs('0 0 31 4 5', 'UTC', '2026-01-01T00:00:00Z', 5).nextRuns).toEqual([
      '2026-04-03T00:00:00Z',
      '2026-04-10T00:00:00Z',
      '2026-04-17T00:00:00Z',
      '2026-04-24T00:00:00Z',
      '2027-04-02T00:00:00Z',
    ]);
    // 13 April 2026 is a Monday: it runs as a 13th, the Fridays around it as Fridays.
    expect(runs('0 9 13 * 5', 'Europe/Paris', '2026-04-01T00:00:00Z', 4).nextRuns).toEqual([
      '2026-04-03T09:00:00+02:00',
      '2026-04-10T09:00:00+02:00',
      '2026-04-13T09:00:00+02:00',
      '2026-04-17T09:00:00+02:00',
    ]);
  });
});
