/**
 * Day of week between the Unix numbering (0-6, 7 = Sunday again) and the Quartz / AWS one
 * (1-7 = SUN-SAT), for convert mode. Names mean the same day in both, so they stay as written.
 */
import { CronExpressionParser } from 'cron-parser';
import { quartzWeekdayValues } from './dialect-syntax.js';
import type { Dialect } from './tool.js';

/** "1,2,3,5" → "1-3,5": runs of three or more written as ranges. */
function compress(values: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && (values[j + 1] as number) === (values[j] as number) + 1) j++;
    if (j - i >= 2) out.push(`${values[i]}-${values[j]}`);
    else for (let k = i; k <= j; k++) out.push(String(values[k]));
    i = j + 1;
  }
  return out.join(',');
}

const isName = (item: string) => /^[a-z]{3}(-[a-z]{3})?$/i.test(item);

/** Weekday numbers 0-6 of a plain Unix day-of-week list (cron-parser expands it: 7 and steps as it runs them). */
function unixWeekdays(text: string): number[] {
  const values: readonly unknown[] = CronExpressionParser.parse(`0 0 * * ${text}`, {
    tz: 'UTC',
    currentDate: 0,
  }).fields.dayOfWeek.values;
  return [...new Set(values.filter((v): v is number => typeof v === 'number').map((v) => v % 7))].sort(
    (a, b) => a - b,
  );
}

/** One weekday token (a number in the source's numbering, or a name) in the target's. */
function weekdayToken(token: string, from: Dialect, to: Dialect): string {
  if (/^[a-z]{3}$/i.test(token)) return token;
  const unix = from === 'unix' ? Number(token) % 7 : Number(token) - 1;
  return String(to === 'unix' ? unix : unix + 1);
}

/** Day of week from one numbering (Unix 0-6, Quartz and AWS 1-7) to the other; names stay. */
export function mapWeekdays(text: string, from: Dialect, to: Dialect): string {
  const sameNumbering = (from === 'unix') === (to === 'unix');
  if (sameNumbering || text === '*' || text === '?') return text;
  if (text === 'L') return from === 'unix' ? text : '6'; // Quartz L alone: Saturday
  const last = /^(\w+)L$/i.exec(text);
  if (last) return `${weekdayToken(last[1] as string, from, to)}L`;
  const nth = /^(\w+)#(\d+)$/.exec(text);
  if (nth) return `${weekdayToken(nth[1] as string, from, to)}#${nth[2]}`;
  const items = text.split(',');
  if (items.every(isName)) return text;
  const named = items.filter(isName);
  const numeric = items.filter((i) => !isName(i)).join(',');
  const days = from === 'unix' ? unixWeekdays(numeric) : quartzWeekdayValues(numeric);
  const shifted = days.map((d) => (to === 'unix' ? d : d + 1));
  return [compress(shifted), ...named].join(',');
}
