/**
 * Convert mode: an expression of one dialect written in another. What cannot be carried
 * over exactly is either dropped with a warning (seconds, years, clock alignment of a
 * rate) or, when no faithful expression exists, refused with UNSUPPORTED_OPTION.
 */

import { quote, ToolInputError } from '#tool-kit';
import type { SplitExpression } from './cron-fields.js';
import type { CronSchedule } from './dialect-cron.js';
import type { DialectSchedule } from './dialects.js';
import type { RateSchedule } from './eventbridge-rate.js';
import type { Dialect } from './tool.js';
import { mapWeekdays } from './weekday-map.js';

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
