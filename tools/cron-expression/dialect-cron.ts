/**
 * A Quartz or EventBridge cron expression, field by field, as the 6-field cron-parser
 * expression the Unix engine runs plus the RunRules (years, day tests, DST) it cannot express.
 */
import { quote } from '#tool-kit';
import { type CronFields, checkExpression, checkField, engineField, splitExpression } from './cron-fields.js';
import { dayOfMonth, dayOfWeek } from './dialect-days.js';
import { expandItems, fail, QUARTZ_WEEKDAYS } from './dialect-syntax.js';
import type { Dialect } from './tool.js';
import { onceEach } from './value-sets.js';
import type { RunRules } from './zoned-runs.js';

const YEAR_MIN = 1970;
const YEAR_MAX: Record<Exclude<Dialect, 'unix'>, number> = { quartz: 2099, eventbridge: 2199 };
const LABEL: Record<Dialect, string> = { unix: 'Unix cron', quartz: 'Quartz', eventbridge: 'EventBridge' };

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

function yearValue(max: number) {
  return (token: string): number => {
    if (!/^\d{4}$/.test(token)) fail('year', `${quote(token)} is not a year`);
    const n = Number(token);
    if (n < YEAR_MIN || n > max) fail('year', `${n} is out of range ${YEAR_MIN}-${max}`);
    return n;
  };
}

/** Second, minute, hour, month: the Unix syntax (cron-parser checks it), without `?`, L, W or #. */
function plainField(name: 'second' | 'minute' | 'hour' | 'month', text: string): void {
  if (text.includes('?')) fail(name, `'?' is allowed only in dayOfMonth and dayOfWeek`);
  checkField(name, text);
}

/** Reads the fields of a Quartz or EventBridge cron expression (after the field count is checked). */
export function readCron(
  dialect: Exclude<Dialect, 'unix'>,
  expression: string,
  fields: CronFields,
): CronSchedule {
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
  const split = splitExpression([second, minute, hour, days.engine, month, weekdays].join(' '));
  // Cross-field rules (30 February) as the Unix dialect reports them.
  checkExpression(split);
  // cronstrue reads a field naming a value twice (`SUN,1`) as its set, as cron-parser does (value-sets.ts).
  const quartzText = [
    engineField('second', second),
    engineField('minute', minute),
    engineField('hour', hour),
    dom,
    engineField('month', month),
    onceEach(dow, QUARTZ_WEEKDAYS) ?? dow,
    ...(year === undefined ? [] : [year]),
  ].join(' ');
  return {
    kind: 'cron',
    dialect,
    expression,
    fields,
    engine: split.engine,
    rules: { years, day: days.day, dst: 'skip' },
    quartzText,
  };
}
