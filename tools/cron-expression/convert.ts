/**
 * Convert mode: an expression of one dialect written in another. What cannot be carried
 * over exactly is either dropped with a warning (seconds, years, clock alignment of a
 * rate) or, when no faithful expression exists, refused with UNSUPPORTED_OPTION.
 */

import { CronExpressionParser } from 'cron-parser';
import { quote, ToolInputError } from '#tool-kit';
import type { SplitExpression } from './cron-fields.js';
import { type CronSchedule, type DialectSchedule, type RateSchedule, WEEKDAY_NAMES } from './dialects.js';
import type { Dialect } from './tool.js';

const LABEL: Record<Dialect, string> = { unix: 'Unix', quartz: 'Quartz', eventbridge: 'EventBridge' };

export interface Converted {
  expression: string;
  warnings: string[];
}

/** The fields of any cron expression, day of week in the source's numbering. */
interface Neutral {
  from: Dialect;
  second: string | undefined;
  minute: string;
  hour: string;
  dayOfMonth: string;
  month: string;
  dayOfWeek: string;
  year: string | undefined;
}

function impossible(from: Dialect, to: Dialect, why: string): never {
  throw new ToolInputError(`cannot convert ${LABEL[from]} to ${LABEL[to]}: ${why}`, 'UNSUPPORTED_OPTION');
}

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

/** Quartz weekday list items (1-7, names, ranges, steps) → 0-6. */
function quartzWeekdays(text: string): number[] {
  const out = new Set<number>();
  const num = (t: string) => {
    const i = WEEKDAY_NAMES.indexOf(t.toUpperCase() as (typeof WEEKDAY_NAMES)[number]);
    return i >= 0 ? i + 1 : Number(t);
  };
  for (const item of text.split(',')) {
    const [range = '', s] = item.split('/');
    const step = s === undefined ? 1 : Number(s);
    const [a = '', b] = range.split('-');
    const lo = a === '*' ? 1 : num(a);
    const hi = b !== undefined ? num(b) : a === '*' || s !== undefined ? 7 : lo;
    for (let v = lo; v <= hi; v += step) out.add(v - 1);
  }
  return [...out].sort((x, y) => x - y);
}

/** One weekday token (a number in the source's numbering, or a name) in the target's. */
function weekdayToken(token: string, from: Dialect, to: Dialect): string {
  if (/^[a-z]{3}$/i.test(token)) return token;
  const unix = from === 'unix' ? Number(token) % 7 : Number(token) - 1;
  return String(to === 'unix' ? unix : unix + 1);
}

/** Day of week from one numbering (Unix 0-6, Quartz and AWS 1-7) to the other; names stay. */
function mapWeekdays(text: string, from: Dialect, to: Dialect): string {
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
  const days = from === 'unix' ? unixWeekdays(numeric) : quartzWeekdays(numeric);
  const shifted = days.map((d) => (to === 'unix' ? d : d + 1));
  return [compress(shifted), ...named].join(',');
}

const freeDay = (text: string) => text === '*' || text === '?';

function neutralOf(source: SplitExpression | CronSchedule, from: Dialect): Neutral {
  const f = source.fields;
  return {
    from,
    second: f.second,
    minute: f.minute ?? '0',
    hour: f.hour ?? '*',
    dayOfMonth: f.dayOfMonth ?? '*',
    month: f.month ?? '*',
    dayOfWeek: f.dayOfWeek ?? '*',
    year: f.year,
  };
}

/** rate() as cron: only periods that divide an hour or a day evenly have a cron equivalent. */
function rateFields(rate: RateSchedule, to: Dialect): Neutral {
  const from = 'eventbridge';
  const step = (n: number) => (n === 1 ? '*' : to === 'unix' ? `*/${n}` : `0/${n}`);
  const minutes = rate.periodMs / 60_000;
  const base = { from, second: undefined, month: '*', year: undefined } as const;
  const days = { dayOfMonth: '*', dayOfWeek: to === 'unix' ? '*' : '?' };
  if (minutes < 60 && 60 % minutes === 0) return { ...base, ...days, minute: step(minutes), hour: '*' };
  const hours = minutes / 60;
  if (Number.isInteger(hours) && hours <= 24 && 24 % hours === 0) {
    return { ...base, ...days, minute: '0', hour: hours === 24 ? '0' : step(hours) };
  }
  const why =
    minutes > 1440
      ? 'a period longer than a day has no cron equivalent (day-of-month steps restart every month)'
      : `it does not divide ${minutes < 60 ? 'an hour' : 'a day'} evenly (cron steps restart every hour and every day)`;
  return impossible(from, to, `no cron expression runs every ${rate.value} ${rate.unit}: ${why}`);
}

/**
 * `source` read in dialect `from` (a Unix split or a Quartz / EventBridge schedule) written in
 * dialect `to`. The caller parses the result in `to` again, which catches anything left.
 */
export function convert(source: SplitExpression | DialectSchedule, from: Dialect, to: Dialect): Converted {
  const warnings: string[] = [];
  if (from === to) return { expression: 'kind' in source ? source.expression : source.expanded, warnings };
  let n: Neutral;
  if ('kind' in source && source.kind === 'rate') {
    n = rateFields(source, to);
    warnings.push(
      `${source.expression} counts from its start time; the cron expression runs at fixed clock times (aligned to the hour or to midnight in the schedule's time zone), not relative to the start`,
    );
  } else {
    n = neutralOf(source, from);
  }
  const dom = n.dayOfMonth;
  const dow = n.dayOfWeek;
  let dayOfMonth = dom;
  let dayOfWeek = mapWeekdays(dow, n.from, to);
  if (to === 'unix') {
    if (/W|^L-/.test(dom)) {
      impossible(
        from,
        to,
        `dayOfMonth ${quote(dom)} (${dom.includes('W') ? 'nearest weekday' : 'days before the last'}) has no Unix equivalent`,
      );
    }
    if (dom === '?') dayOfMonth = '*';
    if (dow === '?') dayOfWeek = '*';
    if (dom === 'L' || /[L#]/.test(dow)) {
      warnings.push(
        `${dom === 'L' ? `dayOfMonth 'L'` : `dayOfWeek ${quote(dayOfWeek)}`} is an extension: cron-parser, croner and several Unix-like schedulers accept it, classic Vixie cron does not`,
      );
    }
  } else if (n.from === 'unix') {
    if (!freeDay(dom) && !freeDay(dow)) {
      impossible(
        from,
        to,
        `Unix runs on a day matching dayOfMonth ${quote(dom)} OR dayOfWeek ${quote(dow)}; ${LABEL[to]} needs '?' in one of them and cannot express the either-day rule`,
      );
    }
    if (freeDay(dom) && freeDay(dow)) {
      dayOfMonth = '*';
      dayOfWeek = '?';
    } else if (freeDay(dom)) dayOfMonth = '?';
    else dayOfWeek = '?';
  }
  let second = n.second;
  if (second !== undefined && second !== '0' && to !== 'quartz') {
    if (to === 'eventbridge') {
      warnings.push(`second ${quote(second)} dropped: EventBridge runs at minute precision, at second 0`);
      second = undefined;
    } else {
      warnings.push(
        `second ${quote(second)} kept as a 6-field, seconds-first expression: classic crontab has no seconds field`,
      );
    }
  } else if (second === '0' && to !== 'quartz') {
    second = undefined;
  }
  let year = n.year;
  if (to === 'unix' && year !== undefined && year !== '*') {
    warnings.push(
      `year ${quote(year)} dropped: Unix cron has no year field, so the expression runs every year`,
    );
    year = undefined;
  }
  // AWS documents steps from a start value (0/15); `*/15` is written that way for Quartz and EventBridge.
  const start = (text: string, min: number) =>
    to === 'unix' ? text : text.replace(/(^|,)\*\//g, `$1${min}/`);
  if (second !== undefined) second = start(second, 0);
  const core = [start(n.minute, 0), start(n.hour, 0), start(dayOfMonth, 1), start(n.month, 1), dayOfWeek];
  if (to === 'unix') return { expression: [...(second ? [second] : []), ...core].join(' '), warnings };
  if (to === 'quartz') {
    return {
      expression: [second ?? '0', ...core, ...(year && year !== '*' ? [year] : [])].join(' '),
      warnings,
    };
  }
  return { expression: `cron(${[...core, year ?? '*'].join(' ')})`, warnings };
}
