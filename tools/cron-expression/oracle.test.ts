/**
 * nextRuns against the brute-force reference of test-helpers.ts, for seeded random
 * expressions in zones of every shape, from instants around each 2026/2027 DST shift
 * (found here with Intl). Deterministic: a fixed seed per zone, fixed zones and instants.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../_shared/test-helpers.js';
import { checkExpression, splitExpression } from './cron-fields.js';
import { nextRuns } from './schedule.js';
import { referenceRuns, slots } from './test-helpers.js';

const WINDOW_HOURS = 6;
const COUNT = 10;
const EXPRESSIONS_PER_WINDOW = 12;

function field(rnd: () => number, min: number, max: number, likely: number[], freeChance: number): string {
  const pick = (list: readonly number[]) => list[Math.floor(rnd() * list.length)] as number;
  const any = () => min + Math.floor(rnd() * (max - min + 1));
  const value = () => (rnd() < 0.6 && likely.length > 0 ? pick(likely) : any());
  const r = rnd();
  if (r < freeChance) return '*';
  if (r < freeChance + 0.15) return `*/${pick([2, 3, 5, 7, 10, 15, 20, 30, 45].filter((s) => s <= max))}`;
  if (r < freeChance + 0.35) return String(value());
  if (r < freeChance + 0.5) {
    const a = value();
    return `${a}-${Math.min(max, a + Math.floor(rnd() * 6))}`;
  }
  if (r < freeChance + 0.6) return `${value()}/${pick([5, 10, 15, 20])}`;
  const list = [...new Set([value(), value(), any()])].sort((x, y) => x - y);
  return list.join(',');
}

/**
 * Day of week, sometimes naming its first day again (`0` as `7` and back: `0,7`, `3,3`),
 * which cron reads as that day once.
 */
function weekdays(rnd: () => number, weekday: number): string {
  const text = field(rnd, 0, 7, [weekday, (weekday + 1) % 7], 0.75);
  const first = /^\d+/.exec(text)?.[0];
  if (first === undefined || rnd() < 0.5) return text;
  return `${text},${first === '0' ? 7 : first === '7' ? 0 : first}`;
}

function expression(rnd: () => number, day: number, weekday: number, month: number): string {
  return [
    field(rnd, 0, 59, [0, 15, 30, 45, 59], 0.2),
    field(rnd, 0, 23, [0, 1, 2, 3, 23], 0.3),
    field(rnd, 1, 31, [day, day + 1], 0.75),
    field(rnd, 1, 12, [month], 0.8),
    weekdays(rnd, weekday),
  ].join(' ');
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
function offsetName(zone: string, t: number): string {
  let format = offsetFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormats.set(zone, format);
  }
  return format.formatToParts(t).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** The offset changes of a zone in 2026-2027, to the minute. */
function transitions(zone: string): number[] {
  const out: number[] = [];
  // Day steps: these zones change at most once a day.
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
    if (offsetName(zone, t) === offsetName(zone, t + 86_400_000)) continue;
    let lo = t;
    let hi = t + 86_400_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetName(zone, mid) === offsetName(zone, lo)) lo = mid;
      else hi = mid;
    }
    out.push(hi);
  }
  return out;
}

const DST_ZONES = [
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'America/Santiago',
  'Pacific/Chatham',
];
const FIXED_ZONES = ['Asia/Kolkata', 'Asia/Kathmandu'];

/** Instants to list the runs from: just before each 2026/2027 shift, or two fixed ones. */
function windowStarts(zone: string): number[] {
  const shifts = transitions(zone);
  if (shifts.length === 0) return ['2026-04-04T14:00:00Z', '2026-10-03T15:29:30Z'].map(Date.parse);
  return shifts.flatMap((t) => [150, 31, 0.5].map((before) => t - before * 60_000));
}

/** Checks one expression from one instant: the number of reference runs, or null when refused. */
function check(expr: string, zone: string, from: number, slotList: ReturnType<typeof slots>): number | null {
  const split = splitExpression(expr);
  try {
    checkExpression(split);
  } catch {
    return null; // e.g. day 31 of a 30-day month: refused before any run is listed
  }
  const got = nextRuns(split.engine, zone, new Date(from), COUNT);
  const label = `${expr} in ${zone} from ${new Date(from).toISOString()}`;
  expect(got.note, label).toBeUndefined();
  expect(got.nextRuns, label).toHaveLength(COUNT);
  const instants = got.nextRuns.map((iso) => Date.parse(iso));
  for (let k = 1; k < instants.length; k++) {
    expect(instants[k], label).toBeGreaterThan(instants[k - 1] as number);
  }
  // The reference sees only the window: past its end the runs are not compared.
  const end = from + WINDOW_HOURS * 3_600_000;
  const expected = referenceRuns(expr, slotList).slice(0, COUNT);
  expect(
    instants.filter((t) => t < end).map((t) => new Date(t).toISOString()),
    label,
  ).toEqual(expected.map((t) => new Date(t).toISOString()));
  for (const [k, iso] of got.nextRuns.entries()) {
    const offset = offsetName(zone, instants[k] as number).replace('GMT', '') || '+00:00';
    expect(iso.endsWith(offset), `${label}: ${iso}`).toBe(true);
  }
  return expected.length;
}

describe('cron-expression nextRuns agree with a brute-force minute-by-minute reference', () => {
  const zones = [...DST_ZONES, ...FIXED_ZONES].map((zone, i) => [zone, 20260404 + i] as const);
  it.each(zones)('in %s, around its DST shifts (seed %i)', (zone, seed) => {
    const starts = windowStarts(zone);
    // Two shifts a year in each DST zone, each seen from three instants just before it.
    expect(starts).toHaveLength(DST_ZONES.includes(zone) ? 12 : 2);
    const rnd = seededRandom(seed);
    let compared = 0;
    let withRuns = 0;
    for (const from of starts) {
      const local = new Date(from + 12 * 3_600_000);
      const slotList = slots(zone, from, WINDOW_HOURS);
      for (let i = 0; i < EXPRESSIONS_PER_WINDOW; i++) {
        const expr = expression(rnd, local.getUTCDate(), local.getUTCDay(), local.getUTCMonth() + 1);
        const runs = check(expr, zone, from, slotList);
        if (runs !== null) compared++;
        if (runs !== null && runs > 0) withRuns++;
      }
    }
    // Most random expressions are valid (refused ones are skipped), and many of those run
    // inside the window, where they are compared run by run.
    expect(compared).toBeGreaterThan(starts.length * EXPRESSIONS_PER_WINDOW * 0.8);
    expect(withRuns).toBeGreaterThan(compared * 0.4);
  });
});
