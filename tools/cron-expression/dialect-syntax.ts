/**
 * The value syntax Quartz and EventBridge share in their day, month and year fields: lists of
 * n, a-b, n/s, a-b/s, * and *\/s, weekdays numbered 1-7 = SUN-SAT. Read here, not by
 * cron-parser, because its day of week is 0-6 and it has no year field.
 */
import { quote } from '#tool-kit';
import type { CronFields } from './cron-fields.js';
import { CronSyntaxError } from './syntax-error.js';
import type { ValueSyntax } from './value-sets.js';

export const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
export const MONTH_NAMES = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
] as const;

/** A wrong field (or, with null, a wrong expression): reported as a `valid: false` result. */
export const fail = (field: keyof CronFields | null, why: string): never => {
  throw new CronSyntaxError(field ? `${field} field: ${why}` : why, field);
};

/** A weekday token in Quartz numbering (1-7 or a name) → 1-7. */
export function quartzWeekday(token: string): number {
  const name = WEEKDAY_NAMES.indexOf(token.toUpperCase() as (typeof WEEKDAY_NAMES)[number]);
  if (name >= 0) return name + 1;
  if (!/^\d{1,2}$/.test(token)) fail('dayOfWeek', `${quote(token)} is not a day of week (1-7 or SUN-SAT)`);
  const n = Number(token);
  if (n < 1 || n > 7) fail('dayOfWeek', `${n} is out of range 1-7 (1 = SUN, 7 = SAT)`);
  return n;
}

/** Values of a list of n, a-b, n/s, a-b/s, * and *\/s items within min-max (Quartz / AWS syntax). */
export function expandItems(
  field: keyof CronFields,
  text: string,
  min: number,
  max: number,
  value: (token: string) => number,
): number[] {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^([^/-]+)(?:-([^/]+))?(?:\/(\d+))?$/.exec(item);
    if (m === null) fail(field, `${quote(item)} is not a valid value`);
    const [, a = '', b, s] = m as RegExpExecArray;
    const step = s === undefined ? 1 : Number(s);
    if (step < 1 || step > max - min + 1) fail(field, `step must be 1 to ${max - min + 1} in ${quote(item)}`);
    const lo = a === '*' ? min : value(a);
    const hi = b !== undefined ? value(b) : a === '*' || s !== undefined ? max : lo;
    if (a === '*' && b !== undefined) fail(field, `malformed range in ${quote(item)}`);
    if (hi < lo) fail(field, `malformed range in ${quote(item)} (the end comes before the start)`);
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((x, y) => x - y);
}

/** Quartz and AWS day of week: 1-7 = SUN-SAT, or the names. */
export const QUARTZ_WEEKDAYS: ValueSyntax = { field: 'dayOfWeek', min: 1, max: 7, token: quartzWeekday };

/** A Quartz weekday list (1-7 or names, ranges, steps) as cron-parser's days 0-6, ascending. */
export function quartzWeekdayValues(text: string): number[] {
  return expandItems('dayOfWeek', text, 1, 7, quartzWeekday).map((d) => d - 1);
}
