/**
 * Run instants of a cron expression in a time zone. cron-parser's own time-zone walk
 * loses runs, repeats fixed times and throws "loop limit exceeded" around DST shifts of
 * 30 minutes (Australia/Lord_Howe), so it is only asked for wall times, in UTC where
 * no shift exists; zone-clock then maps each wall time to its instants with Intl:
 * - a wall time skipped by spring-forward runs shifted forward by the gap;
 * - a wall time repeated at fall-back runs at its first occurrence only when the job
 *   is a fixed time; when its minute or hour field is a wildcard it runs in both passes.
 */
import { type CronExpression, CronExpressionParser } from 'cron-parser';
import { offsetMs, wallInstants } from './zone-clock.js';

const DAY_MS = 86_400_000;

/**
 * What a dialect adds to the cron-parser expression (dialect-cron.ts): a year field and day
 * rules cron-parser lacks (Quartz `W`, `LW`, `L-n`), and its DST rule. `vixie` (Unix): a
 * skipped time runs shifted by the gap, a wildcard job runs in both passes of a repeated
 * interval. `skip` (Quartz CronTrigger, EventBridge Scheduler): a skipped time does not run,
 * a repeated one runs once, at its first occurrence.
 */
export interface RunRules {
  /** Allowed years, ascending; null: every year. */
  years?: readonly number[] | null;
  /** Extra test of a day (UTC date parts of the wall day); null: none. */
  day?: ((year: number, month: number, date: number) => boolean) | null;
  dst?: 'vixie' | 'skip';
  /** Asked while days are skipped: true stops the search with an error (a filter that rarely matches). */
  giveUp?: () => boolean;
}

/** `*`, a step or a list covering the whole field: Vixie cron's "wildcard job" at fall-back. */
function isWildcard(text: string, values: readonly unknown[], span: number): boolean {
  return /[*?/]/.test(text) || values.length >= span;
}

/**
 * True when the job runs in both passes of a repeated interval: its minute or hour field
 * is a wildcard (`0 * * * *`, `*\/15 1 * * *`). A fixed time (`30 1 * * *`, `0 1-3 * * *`)
 * runs once, at its first occurrence, as the README promises. Seconds do not count: a
 * 6-field job at a fixed minute and hour repeats its seconds in the first pass only.
 */
export function runsInBothPasses(expression: string, cron: CronExpression): boolean {
  const parts = expression.trim().split(/\s+/);
  const offset = parts.length === 6 ? 1 : 0;
  const minute = parts[offset] ?? '*';
  const hour = parts[offset + 1] ?? '*';
  return isWildcard(minute, cron.fields.minute.values, 60) || isWildcard(hour, cron.fields.hour.values, 24);
}

const numbers = (values: readonly unknown[]) => values.filter((v): v is number => typeof v === 'number');

/**
 * Matching wall times after `after`, ascending. cron-parser (in UTC, 50-100 µs a call) only
 * finds the matching days; the times of a day are every hour × minute × second of the
 * fields, since those never depend on the date. A fall-back hour of a 6-field job is then
 * 3,600 cheap steps rather than 3,600 cron-parser calls.
 */
function* wallTimes(cron: CronExpression, after: number, rules: RunRules): Generator<number> {
  const hours = numbers(cron.fields.hour.values);
  const minutes = numbers(cron.fields.minute.values);
  const seconds = numbers(cron.fields.second.values);
  const years = rules.years ?? null;
  cron.reset(new Date(after));
  for (;;) {
    const first = cron.next().getTime();
    const day = Math.floor(first / DAY_MS) * DAY_MS;
    const date = new Date(day);
    const year = date.getUTCFullYear();
    if (rules.giveUp?.()) throw new Error('the search budget ran out before the next run was found');
    if (years !== null && !years.includes(year)) {
      const nextYear = years.find((y) => y > year);
      if (nextYear === undefined) return; // the year field has no later year: the schedule ends
      cron.reset(new Date(Date.UTC(nextYear, 0, 1) - 1000));
      continue;
    }
    if (rules.day && !rules.day(year, date.getUTCMonth() + 1, date.getUTCDate())) {
      cron.reset(new Date(day + DAY_MS - 1000));
      continue;
    }
    for (const h of hours) {
      for (const m of minutes) {
        for (const s of seconds) {
          const wall = day + h * 3_600_000 + m * 60_000 + s * 1000;
          if (wall >= first) yield wall;
        }
      }
    }
    cron.reset(new Date(day + DAY_MS - 1000)); // next() is strictly after 23:59:59: the next day on
  }
}

/** Ascending insert without duplicates: a gap-shifted run may land on a run that exists. */
function insertSorted(list: number[], value: number): void {
  let i = list.length;
  while (i > 0 && (list[i - 1] as number) > value) i--;
  if (list[i - 1] !== value) list.splice(i, 0, value);
}

/**
 * The run instants strictly after `from`, ascending and without duplicates. Wall times
 * come in increasing order and their instants almost so: next to a transition a later
 * wall time can map to an earlier instant (the repeat pass, a gap-shifted time), so each
 * instant waits in `pending` until no later wall time can map before it (`settled`).
 */
export function* zonedRuns(
  expression: string,
  timeZone: string,
  from: Date,
  rules: RunRules = {},
): Generator<number> {
  const start = from.getTime();
  // The lowest offset near `from` gives the earliest wall time whose instant can follow it.
  const lowest = Math.min(
    offsetMs(timeZone, start - DAY_MS),
    offsetMs(timeZone, start),
    offsetMs(timeZone, start + DAY_MS),
  );
  const cron = CronExpressionParser.parse(expression, { tz: 'UTC' });
  const skipRule = rules.dst === 'skip';
  const bothPasses = !skipRule && runsInBothPasses(expression, cron);
  const pending: number[] = [];
  for (const wall of wallTimes(cron, start + lowest - 1000, rules)) {
    const { first, repeat, settled, skipped } = wallInstants(timeZone, wall);
    if (first > start && !(skipped && skipRule)) insertSorted(pending, first);
    if (repeat !== null && bothPasses && repeat > start) insertSorted(pending, repeat);
    while (pending.length > 0 && (pending[0] as number) <= settled) yield pending.shift() as number;
  }
  yield* pending;
}
