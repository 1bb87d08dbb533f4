/**
 * Quartz / EventBridge day of month and day of week, translated for cron-parser. What
 * cron-parser cannot run (`nW`, `LW`, `L-n`) becomes a `*` in the engine expression plus a
 * RunRules day test, checked against a calendar here.
 */
import { quote } from '#tool-kit';
import { checkExpression, checkField, splitExpression, unixSyntax } from './cron-fields.js';
import { expandItems, fail, quartzWeekday, quartzWeekdayValues } from './dialect-syntax.js';
import type { RunRules } from './zoned-runs.js';

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const weekday = (year: number, month: number, date: number) =>
  new Date(Date.UTC(year, month - 1, date)).getUTCDay();

/** Quartz `nW`: the weekday nearest day n, never leaving the month (1W on a Saturday is Monday the 3rd). */
export function nearestWeekday(year: number, month: number, n: number): number | null {
  const last = daysIn(year, month);
  if (n > last) return null;
  const wd = weekday(year, month, n);
  if (wd === 6) return n === 1 ? 3 : n - 1;
  if (wd === 0) return n === last ? n - 2 : n + 1;
  return n;
}

/** The last weekday (Monday-Friday) of a month: `LW`. */
export function lastWeekday(year: number, month: number): number {
  let d = daysIn(year, month);
  while (weekday(year, month, d) === 0 || weekday(year, month, d) === 6) d--;
  return d;
}

/** Longest length of the months a month field allows (February 29), to refuse days that never come. */
function longestMonth(monthText: string): number {
  try {
    const cron = splitExpression(`0 0 0 1 ${monthText} *`);
    checkExpression(cron);
  } catch {
    return 31; // the month field's own check reports it
  }
  const months = expandItems('month', monthText.replace('?', '*'), 1, 12, unixSyntax('month').token);
  return Math.max(...months.map((m) => (m === 2 ? 29 : daysIn(2001, m))));
}

interface DayParts {
  engine: string;
  day: RunRules['day'];
}

export function dayOfMonth(text: string, monthText: string): DayParts {
  if (text === '?' || text === '*') return { engine: '*', day: null };
  if (text === 'L') return { engine: 'L', day: null };
  const longest = longestMonth(monthText);
  const before = /^L-(\d{1,2})$/.exec(text);
  if (before) {
    const n = Number(before[1]);
    if (n > 30) fail('dayOfMonth', `L-${n}: the offset must be 0 to 30`);
    if (n >= longest) fail('dayOfMonth', `L-${n} never occurs in month ${monthText}`);
    return { engine: '*', day: (y, m, d) => d === daysIn(y, m) - n };
  }
  if (text === 'LW') return { engine: '*', day: (y, m, d) => d === lastWeekday(y, m) };
  const near = /^(\d{1,2})W$/.exec(text);
  if (near) {
    const n = Number(near[1]);
    if (n < 1 || n > 31) fail('dayOfMonth', `${n}W: ${n} is out of range 1-31`);
    if (n > longest) fail('dayOfMonth', `day ${n} never occurs in month ${monthText}`);
    return { engine: '*', day: (y, m, d) => d === nearestWeekday(y, m, n) };
  }
  if (/[LW#]/i.test(text)) {
    fail('dayOfMonth', `${quote(text)}: L, L-n, LW and nW stand alone (no lists or ranges with them)`);
  }
  checkField('dayOfMonth', text);
  return { engine: text, day: null };
}

/** Quartz / AWS day of week (1-7 = SUN-SAT) → cron-parser's (0-6). */
export function dayOfWeek(text: string): string {
  if (text === '?' || text === '*') return '*';
  if (text === 'L') return '6'; // L alone: the last day of the week, Saturday
  const last = /^(\w+)L$/i.exec(text);
  if (last) return `${quartzWeekday(last[1] as string) - 1}L`;
  const nth = /^(\w+)#(\d+)$/.exec(text);
  if (nth) {
    const k = Number(nth[2]);
    if (k < 1 || k > 5) fail('dayOfWeek', `${quote(text)}: the occurrence after # must be 1 to 5`);
    return `${quartzWeekday(nth[1] as string) - 1}#${k}`;
  }
  // No weekday name contains L or #: either one here is a misplaced nL or n#k.
  if (/[L#?]/i.test(text)) {
    fail('dayOfWeek', `${quote(text)}: nL and n#k stand alone (no lists or ranges with them)`);
  }
  return quartzWeekdayValues(text).join(',');
}
