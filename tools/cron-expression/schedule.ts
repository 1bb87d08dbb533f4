/** Input bounds and the upcoming runs (zoned-runs) of a checked expression. */
import { ToolInputError } from '../../src/shared/tool-error.js';
import { formatInZone } from './zone-clock.js';
import { zonedRuns } from './zoned-runs.js';

export const MAX_COUNT = 50;
export const DEFAULT_COUNT = 5;
/**
 * Search time for the next runs. A sparse schedule (the fifth Friday of February comes
 * once in 28 years) costs cron-parser tens of milliseconds per run: past this budget
 * the runs found so far are returned with a note rather than the run ending in TIMEOUT.
 */
export const SEARCH_BUDGET_MS = 400;

/** Canonical IANA name of a time zone (case-insensitive input), or INVALID_INPUT naming it. */
export function resolveTimezone(value: unknown): string {
  if (value === undefined || value === null || value === '') return 'UTC';
  if (typeof value !== 'string' || value.length > 64) {
    throw new ToolInputError('timezone must be an IANA time zone name such as Europe/Paris');
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    throw new ToolInputError(`unknown timezone '${value}'; use an IANA name such as America/New_York or UTC`);
  }
}

export function resolveCount(value: unknown): number {
  if (value === undefined || value === null || value === '') return DEFAULT_COUNT;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_COUNT) {
    throw new ToolInputError(`count must be an integer from 0 to ${MAX_COUNT}; got ${String(value)}`);
  }
  return n;
}

/** Date rolls 2025-02-30 over to 2 March silently: the day must exist in its month. */
function dayExists(value: unknown): boolean {
  const [y, m, d] = String(value).slice(0, 10).split('-').map(Number) as [number, number, number];
  const last = new Date(0);
  last.setUTCFullYear(y, m, 0); // day 0 of the next month; setUTCFullYear keeps years 0-99 as given
  return d >= 1 && d <= last.getUTCDate();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Start instant of nextRuns: an ISO 8601 date-time with Z or an offset; default now. */
export function resolveFrom(value: unknown, now: () => Date = () => new Date()): Date {
  if (value === undefined || value === null || value === '') return now();
  const date = typeof value === 'string' && ISO_INSTANT.test(value) ? new Date(value) : null;
  if (date === null || Number.isNaN(date.getTime()) || date.getUTCFullYear() > 9999 || !dayExists(value)) {
    throw new ToolInputError(
      `from must be an ISO 8601 date-time with Z or an offset, e.g. 2025-03-08T12:00:00Z; got ${String(value)}`,
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
  clock: () => number = () => performance.now(),
): NextRuns {
  const runs: string[] = [];
  const deadline = clock() + SEARCH_BUDGET_MS;
  try {
    const instants = zonedRuns(expression, timezone, from);
    while (runs.length < count) {
      if (runs.length > 0 && clock() > deadline) {
        return {
          nextRuns: runs,
          note: `stopped after ${runs.length} runs: the schedule is too sparse to list ${count} within the time budget`,
        };
      }
      runs.push(formatInZone(instants.next().value as number, timezone));
    }
  } catch (err) {
    return { nextRuns: runs, note: `stopped after ${runs.length} runs: ${(err as Error).message}` };
  }
  return { nextRuns: runs };
}
