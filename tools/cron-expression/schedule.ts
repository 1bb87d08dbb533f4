/** The time zone and start of the runs, and the upcoming runs (zoned-runs) of a checked expression. */
import { ToolInputError } from '#tool-kit';
import { threadCpuClock } from './cpu-clock.js';
import { DEFAULT_TIMEZONE } from './tool.js';
import { formatInZone } from './zone-clock.js';
import { type RunRules, zonedRuns } from './zoned-runs.js';
/**
 * Search time for the next runs, in CPU time of the run's own thread (cpu-clock.ts).
 * A sparse schedule (the fifth Friday of February comes once in 28 years) costs
 * cron-parser tens of milliseconds per run: past this budget the runs found so far are
 * returned with a note rather than the run ending in TIMEOUT. CPU time, not wall time: a
 * run that waits for a core on a busy machine gives the same answer as on an idle one,
 * unless it is starved past 700 ms of wall time (then what it found, before the timeout).
 */
export const SEARCH_BUDGET_MS = 400;

/** Canonical IANA name of a time zone (case-insensitive input), or INVALID_INPUT naming it. */
export function resolveTimezone(value: string | undefined): string {
  // An empty timezone (`?b=`) is text, so the schema's default does not fill it: it means the default.
  if (!value) return DEFAULT_TIMEZONE;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new ToolInputError(`unknown timezone '${value}'; use an IANA name such as America/New_York or UTC`);
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Start instant of nextRuns; default now. The schema's `date-time` format has checked the
 * date (the day exists in its month, a 4-digit year); this is the stricter form Date reads
 * the same way everywhere: a `T`, seconds to at most nanoseconds, Z or a ±hh:mm offset.
 */
export function resolveFrom(value: string | undefined, now: () => Date = () => new Date()): Date {
  if (value === undefined) return now();
  const date = ISO_INSTANT.test(value) ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime())) {
    throw new ToolInputError(
      `from must be an ISO 8601 date-time with Z or an offset, e.g. 2025-03-08T12:00:00Z; got ${value}`,
    );
  }
  return date;
}

export interface NextRuns {
  nextRuns: string[];
  /** Set when fewer runs than asked were found (cron-parser's search limit or date range). */
  note?: string;
}

/**
 * The next `count` runs strictly after `from`, as ISO 8601 in `timezone` with its offset.
 * DST (zoned-runs): a time skipped by spring-forward is moved forward by the gap (02:30
 * runs at 03:30 after a one-hour gap, 02:00 at 02:30 after Lord Howe's half hour); a fixed
 * time repeated at fall-back runs once, at its first occurrence, while a job whose minute
 * or hour field is a wildcard (`*`, a step, every value) runs in both passes.
 */
export function nextRuns(
  expression: string,
  timezone: string,
  from: Date,
  count: number,
  clock: () => number = threadCpuClock(),
  rules: RunRules = {},
): NextRuns {
  const runs: string[] = [];
  const deadline = clock() + SEARCH_BUDGET_MS;
  try {
    // Days skipped by a dialect's filter (year, W) are cheap; a filter that never matches must still stop.
    const filtered = Boolean(rules.day) || Boolean(rules.years);
    const giveUp = filtered ? () => clock() > deadline + SEARCH_BUDGET_MS / 2 : undefined;
    const instants = zonedRuns(expression, timezone, from, { ...rules, giveUp });
    while (runs.length < count) {
      if (runs.length > 0 && clock() > deadline) {
        return {
          nextRuns: runs,
          note: `stopped after ${runs.length} runs: the schedule is too sparse to list ${count} within the time budget`,
        };
      }
      const next = instants.next();
      if (next.done) {
        const last = rules.years?.[rules.years.length - 1];
        return {
          nextRuns: runs,
          note: `stopped after ${runs.length} runs: the schedule has no run after ${last === undefined ? 'these' : `its last year, ${last}`}`,
        };
      }
      runs.push(formatInZone(next.value, timezone));
    }
  } catch (err) {
    return { nextRuns: runs, note: `stopped after ${runs.length} runs: ${(err as Error).message}` };
  }
  return { nextRuns: runs };
}

/** rate(): a fixed period (EventBridge: days are 24-hour durations), counted from `from` as the start. */
export function rateRuns(periodMs: number, timezone: string, from: Date, count: number): string[] {
  const runs: string[] = [];
  for (let k = 1; k <= count; k++) runs.push(formatInZone(from.getTime() + k * periodMs, timezone));
  return runs;
}
