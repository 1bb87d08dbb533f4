import { describe, expect, it } from 'vitest';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

const FROM = '2025-03-07T12:00:00Z';
type Result = Record<string, unknown> & { nextRuns: string[] };
const cron = toolRunner(tool, run);
const parse = async (input: Record<string, unknown>) =>
  (await cron({ from: FROM, ...input }, 'parse')) as Result;

/** Wall-clock parts and UTC offset of an instant in a zone, read with Intl (independent of luxon). */
function wall(iso: string, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(new Date(iso));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const offset = get('timeZoneName').replace('GMT', '') || '+00:00';
  return { weekday: get('weekday'), hour: Number(get('hour')), minute: Number(get('minute')), offset };
}

describe('cron-expression parse', () => {
  it('explains a 5-field expression and lists runs in UTC', async () => {
    const r = await parse({ expression: '*/15 9-17 * * 1-5', count: 3 });
    expect(r.valid).toBe(true);
    expect(r.description).toBe('Every 15 minutes, between 09:00 AM and 05:59 PM, Monday through Friday');
    expect(r.fields).toEqual({ minute: '*/15', hour: '9-17', dayOfMonth: '*', month: '*', dayOfWeek: '1-5' });
    expect(r.nextRuns).toEqual(['2025-03-07T12:15:00Z', '2025-03-07T12:30:00Z', '2025-03-07T12:45:00Z']);
  });

  it('every run matches the expression in the zone and carries that zone offset (Intl oracle)', async () => {
    const r = await parse({
      expression: '*/15 9-17 * * 1-5',
      timezone: 'Europe/Paris',
      count: 50,
      from: '2025-03-28T15:00:00Z',
    });
    expect(r.nextRuns).toHaveLength(50);
    for (const run of r.nextRuns) {
      const w = wall(run, 'Europe/Paris');
      expect([0, 15, 30, 45]).toContain(w.minute);
      expect(w.hour).toBeGreaterThanOrEqual(9);
      expect(w.hour).toBeLessThanOrEqual(17);
      expect(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']).toContain(w.weekday);
      expect(run.endsWith(w.offset)).toBe(true);
    }
    // The runs cross the 30 March 2025 change from +01:00 to +02:00.
    expect(r.nextRuns.some((x) => x.endsWith('+01:00'))).toBe(true);
    expect(r.nextRuns.some((x) => x.endsWith('+02:00'))).toBe(true);
  });

  it('handles the spring-forward gap: 02:30 on 9 March 2025 in New York runs at 03:30 EDT', async () => {
    const r = await parse({ expression: '30 2 * * *', timezone: 'America/New_York', count: 4 });
    expect(r.nextRuns).toEqual([
      '2025-03-08T02:30:00-05:00',
      '2025-03-09T03:30:00-04:00',
      '2025-03-10T02:30:00-04:00',
      '2025-03-11T02:30:00-04:00',
    ]);
  });

  it('handles fall-back: a daily 01:30 runs once, an hourly job runs in both 01:00 hours', async () => {
    const daily = await parse({
      expression: '30 1 * * *',
      timezone: 'America/New_York',
      from: '2025-11-01T12:00:00Z',
      count: 2,
    });
    expect(daily.nextRuns).toEqual(['2025-11-02T01:30:00-04:00', '2025-11-03T01:30:00-05:00']);
    const hourly = await parse({
      expression: '0 * * * *',
      timezone: 'America/New_York',
      from: '2025-11-02T04:30:00Z',
      count: 3,
    });
    expect(hourly.nextRuns).toEqual([
      '2025-11-02T01:00:00-04:00',
      '2025-11-02T01:00:00-05:00',
      '2025-11-02T02:00:00-05:00',
    ]);
  });

  it('reads 6-field expressions as seconds first', async () => {
    const r = await parse({ expression: '*/20 * * * * *', count: 3 });
    expect(r.hasSeconds).toBe(true);
    expect(r.fields).toMatchObject({ second: '*/20', minute: '*' });
    expect(r.nextRuns).toEqual(['2025-03-07T12:00:20Z', '2025-03-07T12:00:40Z', '2025-03-07T12:01:00Z']);
  });

  it.each([
    ['@yearly', '2026-01-01T00:00:00Z'],
    ['@annually', '2026-01-01T00:00:00Z'],
    ['@monthly', '2025-04-01T00:00:00Z'],
    ['@weekly', '2025-03-09T00:00:00Z'],
    ['@daily', '2025-03-08T00:00:00Z'],
    ['@midnight', '2025-03-08T00:00:00Z'],
    ['@HOURLY', '2025-03-07T13:00:00Z'],
  ])('expands the macro %s', async (expression, first) => {
    const r = await parse({ expression, count: 1 });
    expect(r.valid).toBe(true);
    expect(r.macro).toBe(expression.toLowerCase());
    expect(r.nextRuns).toEqual([first]);
  });

  it('accepts names, L and n#k', async () => {
    const r = await parse({ expression: '0 9 * JAN-MAR 1#2', count: 1 });
    expect(r.nextRuns).toEqual(['2025-03-10T09:00:00Z']);
    const last = await parse({ expression: '0 0 L * *', count: 1 });
    expect(last.nextRuns).toEqual(['2025-03-31T00:00:00Z']);
  });

  it.each([
    ['61 * * * *', 'minute', 'minute field: 61 is out of range 0-59'],
    ['0 24 * * *', 'hour', 'hour field: 24 is out of range 0-23'],
    ['0 0 0 * *', 'dayOfMonth', 'dayOfMonth field: 0 is out of range 1-31'],
    ['0 0 1 13 *', 'month', 'month field: 13 is out of range 1-12'],
    ['0 0 * * 8', 'dayOfWeek', 'dayOfWeek field: 8 is out of range 0-7'],
    ['60 * * * * *', 'second', 'second field: 60 is out of range 0-59'],
    ['0 5-2 * * *', 'hour', 'hour field: malformed range'],
    ['*/100 * * * *', 'minute', 'minute field: step 100 is larger'],
    ['H * * * *', 'minute', 'hashed values (H) are not supported'],
    ['0 0 30 2 *', 'dayOfMonth', 'day 30 never occurs in month 2'],
    ['0 0 * * 1#6', 'dayOfWeek', 'dayOfWeek field:'],
    ['x * * * *', 'minute', "minute field: 'x' is not a valid value"],
  ])('reports %s as invalid, naming the %s field', async (expression, field, message) => {
    const r = await parse({ expression });
    expect(r.valid).toBe(false);
    expect(r.field).toBe(field);
    expect(r.error).toContain(message);
    expect(r.nextRuns).toEqual([]);
  });

  it.each([
    ['* * * *', 'expression has 4 fields'],
    ['* * * * * * *', 'expression has 7 fields'],
    ['@reboot', "unknown macro '@reboot'"],
  ])('reports the shape of %s as invalid', async (expression, message) => {
    const r = await parse({ expression });
    expect(r).toMatchObject({ valid: false, field: null, fields: null });
    expect(r.error).toContain(message);
  });

  it('defaults from to now: runs are in the future', async () => {
    const r = (await cron({ expression: '* * * * *', count: 1 }, 'parse')) as Result;
    expect(Date.parse(r.nextRuns[0] ?? '')).toBeGreaterThan(Date.now() - 1000);
  });
});
