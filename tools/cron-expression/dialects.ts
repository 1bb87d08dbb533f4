/**
 * Quartz and AWS EventBridge expressions, read into what the Unix engine runs: a 6-field
 * cron-parser expression (seconds first, day of week 0-6) plus the rules cron-parser lacks
 * (zoned-runs RunRules: a year field, Quartz `W`, `LW` and `L-n` days, and the DST rule of
 * those schedulers). Field syntax as documented by Quartz's CronTrigger tutorial and AWS's
 * "Cron expressions reference" / EventBridge Scheduler "Schedule types":
 * - Quartz: `sec min hour dom month dow [year]`, day of week 1-7 = SUN-SAT, years 1970-2099;
 * - EventBridge: `cron(min hour dom month dow year)`, the same day rules, years 1970-2199,
 *   or `rate(value unit)` with minute(s), hour(s) or day(s), singular exactly for 1.
 * Both need `?` in one (and only one) of day of month and day of week.
 */
import { quote } from '#tool-kit';
import {
  type CronFields,
  CronSyntaxError,
  checkExpression,
  checkField,
  splitExpression,
} from './cron-fields.js';
import type { Dialect } from './tool.js';
import type { RunRules } from './zoned-runs.js';

export const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] as const;
const YEAR_MIN = 1970;
const YEAR_MAX: Record<Exclude<Dialect, 'unix'>, number> = { quartz: 2099, eventbridge: 2199 };
const LABEL: Record<Dialect, string> = { unix: 'Unix cron', quartz: 'Quartz', eventbridge: 'EventBridge' };
/** Largest rate() value: 50 runs of a million days stay inside the dates JavaScript can write. */
export const MAX_RATE_VALUE = 1_000_000;

export interface CronSchedule {
  kind: 'cron';
  dialect: Exclude<Dialect, 'unix'>;
  /** The expression as given (trimmed). */
  expression: string;
  fields: CronFields;
  /** What cron-parser runs: second minute hour dayOfMonth month dayOfWeek, day of week 0-6. */
  engine: string;
  rules: RunRules;
  /** The 7-field Quartz form cronstrue describes (dayOfWeekStartIndexZero false). */
  quartzText: string;
}

export const RATE_UNITS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
export type RateUnit = keyof typeof RATE_UNITS;

export interface RateSchedule {
  kind: 'rate';
  dialect: 'eventbridge';
  expression: string;
  value: number;
  /** The unit as written: minute, minutes, hour, hours, day or days. */
  unit: string;
  base: RateUnit;
  periodMs: number;
}

export type DialectSchedule = CronSchedule | RateSchedule;

/**
 * Auto-detection: `cron(…)` / `rate(…)` is EventBridge; 7 fields with `?` in a day field
 * (Quartz's mark: Unix has neither 7 fields nor a year) Quartz; anything else Unix, as before.
 */
export function detectDialect(expression: string): Dialect {
  const text = expression.trim();
  if (/^(cron|rate)\s*\(/i.test(text)) return 'eventbridge';
  const parts = text.split(/\s+/);
  if (parts.length === 7 && (parts[3] === '?' || parts[5] === '?')) return 'quartz';
  return 'unix';
}

/** Added to the Unix "7 fields" error when the dialect was not named. */
export const QUARTZ_HINT =
  "; a 7-field Quartz expression (with a year) needs '?' in dayOfMonth or dayOfWeek, or name dialect quartz";

const fail = (field: keyof CronFields | null, why: string): never => {
  throw new CronSyntaxError(field ? `${field} field: ${why}` : why, field);
};

/** A weekday token in Quartz numbering (1-7 or a name) → 1-7. */
function quartzWeekday(token: string): number {
  const name = WEEKDAY_NAMES.indexOf(token.toUpperCase() as (typeof WEEKDAY_NAMES)[number]);
  if (name >= 0) return name + 1;
  if (!/^\d{1,2}$/.test(token)) fail('dayOfWeek', `${quote(token)} is not a day of week (1-7 or SUN-SAT)`);
  const n = Number(token);
  if (n < 1 || n > 7) fail('dayOfWeek', `${n} is out of range 1-7 (1 = SUN, 7 = SAT)`);
  return n;
}

/** Values of a list of n, a-b, n/s, a-b/s, * and *\/s items within min-max (Quartz / AWS syntax). */
function expandItems(
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

function yearValue(max: number) {
  return (token: string): number => {
    if (!/^\d{4}$/.test(token)) fail('year', `${quote(token)} is not a year`);
    const n = Number(token);
    if (n < YEAR_MIN || n > max) fail('year', `${n} is out of range ${YEAR_MIN}-${max}`);
    return n;
  };
}

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
  const names = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
  const months = expandItems('month', monthText.replace('?', '*'), 1, 12, (t) => {
    const i = names.indexOf(t.toUpperCase());
    return i >= 0 ? i + 1 : Number(t);
  });
  return Math.max(...months.map((m) => (m === 2 ? 29 : daysIn(2001, m))));
}

interface DayParts {
  engine: string;
  day: RunRules['day'];
}

function dayOfMonth(text: string, monthText: string): DayParts {
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
function dayOfWeek(text: string): string {
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
  return expandItems('dayOfWeek', text, 1, 7, quartzWeekday)
    .map((d) => d - 1)
    .join(',');
}

/** Second, minute, hour, month: the Unix syntax (cron-parser checks it), without `?`, L, W or #. */
function plainField(name: 'second' | 'minute' | 'hour' | 'month', text: string): void {
  if (text.includes('?')) fail(name, `'?' is allowed only in dayOfMonth and dayOfWeek`);
  checkField(name, text);
}

/** Reads the fields of a Quartz or EventBridge cron expression (after the field count is checked). */
function readCron(dialect: Exclude<Dialect, 'unix'>, expression: string, fields: CronFields): CronSchedule {
  const second = fields.second ?? '0';
  const { minute = '', hour = '', dayOfMonth: dom = '', month = '', dayOfWeek: dow = '' } = fields;
  if (dialect === 'quartz') plainField('second', second);
  plainField('minute', minute);
  plainField('hour', hour);
  plainField('month', month);
  const label = LABEL[dialect];
  if (dom === '?' && dow === '?')
    fail('dayOfWeek', `${label} allows '?' in only one of dayOfMonth and dayOfWeek`);
  if (dom !== '?' && dow !== '?') {
    fail(
      dow === '*' ? 'dayOfWeek' : 'dayOfMonth',
      `${label} requires '?' in dayOfMonth or dayOfWeek (e.g. '* * ?' or '? * MON'); both are set here`,
    );
  }
  const days = dayOfMonth(dom, month);
  const weekdays = dayOfWeek(dow);
  let years: number[] | null = null;
  const year = fields.year;
  if (year !== undefined && year !== '*') {
    if (year.includes('?')) fail('year', `'?' is allowed only in dayOfMonth and dayOfWeek`);
    years = expandItems('year', year, YEAR_MIN, YEAR_MAX[dialect], yearValue(YEAR_MAX[dialect]));
  }
  const engine = [second, minute, hour, days.engine, month, weekdays].join(' ');
  // Cross-field rules (30 February) as the Unix dialect reports them.
  checkExpression(splitExpression(engine));
  const quartzText = [second, minute, hour, dom, month, dow, ...(year === undefined ? [] : [year])].join(' ');
  return {
    kind: 'cron',
    dialect,
    expression,
    fields,
    engine,
    rules: { years, day: days.day, dst: 'skip' },
    quartzText,
  };
}

function splitFields(text: string): string[] {
  return text.trim() === '' ? [] : text.trim().split(/\s+/);
}

export function parseQuartz(expression: string): CronSchedule {
  const parts = splitFields(expression);
  if (parts.length !== 6 && parts.length !== 7) {
    fail(
      null,
      `Quartz expression has ${parts.length} field${parts.length === 1 ? '' : 's'}; expected 6 ` +
        '(second minute hour dayOfMonth month dayOfWeek) or 7 (with year)',
    );
  }
  const [second, minute, hour, dom, month, dow, year] = parts;
  const fields: CronFields = { second, minute, hour, dayOfMonth: dom, month, dayOfWeek: dow };
  if (year !== undefined) fields.year = year;
  return readCron('quartz', expression.trim(), fields);
}

function parseRate(expression: string, inner: string): RateSchedule {
  const m = /^(\S+)\s+(\S+)$/.exec(inner.trim());
  if (m === null) fail(null, `rate() takes a value and a unit, e.g. rate(5 minutes); got ${expression}`);
  const [, valueText = '', unit = ''] = m as RegExpExecArray;
  if (!/^\d{1,7}$/.test(valueText) || Number(valueText) < 1 || Number(valueText) > MAX_RATE_VALUE) {
    fail(null, `rate value ${quote(valueText)} must be a whole number from 1 to ${MAX_RATE_VALUE}`);
  }
  const value = Number(valueText);
  const base = unit.replace(/s$/, '') as RateUnit;
  if (!(base in RATE_UNITS) || !/^(minute|hour|day)s?$/.test(unit)) {
    fail(null, `rate unit ${quote(unit)} is not supported; use minute(s), hour(s) or day(s)`);
  }
  const plural = unit.endsWith('s');
  if (value === 1 && plural) fail(null, `rate(1 ${unit}) must use the singular: rate(1 ${base})`);
  if (value > 1 && !plural) fail(null, `rate(${value} ${unit}) must use the plural: rate(${value} ${base}s)`);
  return {
    kind: 'rate',
    dialect: 'eventbridge',
    expression,
    value,
    unit,
    base,
    periodMs: value * RATE_UNITS[base],
  };
}

/** `cron(min hour dom month dow year)`, `rate(value unit)`, or the six cron fields bare. */
export function parseEventBridge(expression: string): DialectSchedule {
  const text = expression.trim();
  const wrapped = /^(cron|rate)\s*\(([^()]*)\)$/i.exec(text);
  if (wrapped === null && /^(cron|rate)\s*\(/i.test(text)) {
    fail(null, `malformed EventBridge expression: write cron(fields) or rate(value unit)`);
  }
  const kind = wrapped?.[1]?.toLowerCase();
  if (wrapped && wrapped[1] !== kind) fail(null, `write ${kind}( in lower case`);
  if (kind === 'rate') return parseRate(text, wrapped?.[2] ?? '');
  const parts = splitFields(wrapped ? (wrapped[2] ?? '') : text);
  if (parts.length !== 6) {
    fail(
      null,
      `EventBridge cron has ${parts.length} field${parts.length === 1 ? '' : 's'}; expected 6 ` +
        '(minute hour dayOfMonth month dayOfWeek year), e.g. cron(0 10 * * ? *)',
    );
  }
  const [minute, hour, dom, month, dow, year] = parts;
  return readCron('eventbridge', text, { minute, hour, dayOfMonth: dom, month, dayOfWeek: dow, year });
}
