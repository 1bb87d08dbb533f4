/**
 * Splitting and per-field checking of cron expressions. cron-parser validates the
 * expression as a whole and its messages do not say which field is wrong, so each
 * field is also checked alone (by cron-parser itself, on a probe expression) to name it.
 */

import { CronExpressionParser } from 'cron-parser';
import { quote } from '#tool-kit';
import { fail, MONTH_NAMES, WEEKDAY_NAMES } from './dialect-syntax.js';
import { CronSyntaxError } from './syntax-error.js';
import { onceEach, type ValueSyntax } from './value-sets.js';

/** The fields of a Unix expression (6 with seconds), the ones cron-parser reads. */
export const UNIX_FIELD_NAMES = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;
/** Every field a result can name: the Unix ones and Quartz / EventBridge's year. */
export const FIELD_NAMES = [...UNIX_FIELD_NAMES, 'year'] as const;
export type UnixFieldName = (typeof UNIX_FIELD_NAMES)[number];
export type FieldName = (typeof FIELD_NAMES)[number];
export type CronFields = Partial<Record<FieldName, string>>;

/** The classic Vixie-cron macros, as 5-field expressions. */
export const MACROS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Number of distinct values of each field (dayOfWeek: 0-6, 7 being Sunday again). */
const SPAN: Record<UnixFieldName, { min: number; max: number }> = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31 },
  month: { min: 1, max: 12 },
  dayOfWeek: { min: 0, max: 6 },
};

/** How each Unix field is written: day of week 0-7, 7 being Sunday's other number (Vixie cron). */
export function unixSyntax(field: UnixFieldName): ValueSyntax {
  const names: readonly string[] =
    field === 'month' ? MONTH_NAMES : field === 'dayOfWeek' ? WEEKDAY_NAMES : [];
  const first = field === 'month' ? 1 : 0;
  const { min } = SPAN[field];
  const max = field === 'dayOfWeek' ? 7 : SPAN[field].max;
  const token = (text: string): number => {
    const named = names.indexOf(text.toUpperCase());
    if (named >= 0) return named + first;
    const n = /^\d{1,2}$/.test(text) ? Number(text) : Number.NaN;
    if (!(n >= min && n <= max)) fail(field, `${quote(text)} is not a value from ${min} to ${max}`);
    return n;
  };
  return { field, min, max, token, ...(field === 'dayOfWeek' ? { fold: (v: number) => v % 7 } : {}) };
}

/** A field as cron-parser and cronstrue read it: one naming a value twice (`0,7`) as its set (value-sets.ts). */
export function engineField(name: UnixFieldName, value: string): string {
  return onceEach(value, unixSyntax(name)) ?? value;
}

export interface SplitExpression {
  /** The expression as written (macro expanded, single spaces). */
  expanded: string;
  /** What cron-parser and cronstrue read: `expanded` with each field through engineField. */
  engine: string;
  macro: string | null;
  hasSeconds: boolean;
  fields: CronFields;
}

/** Splits a 5-field, 6-field (seconds first) or macro expression into named fields. */
export function splitExpression(expression: string): SplitExpression {
  const trimmed = expression.trim();
  let macro: string | null = null;
  let text = trimmed;
  if (trimmed.startsWith('@')) {
    const expansion = MACROS[trimmed.toLowerCase()];
    if (expansion === undefined) {
      throw new CronSyntaxError(
        `unknown macro '${trimmed}'; supported: ${Object.keys(MACROS).join(', ')}`,
        null,
      );
    }
    macro = trimmed.toLowerCase();
    text = expansion;
  }
  const parts = text.split(/\s+/);
  if (parts.length !== 5 && parts.length !== 6) {
    throw new CronSyntaxError(
      `expression has ${parts.length} field${parts.length === 1 ? '' : 's'}; expected 5 ` +
        '(minute hour dayOfMonth month dayOfWeek) or 6 (second first)',
      null,
    );
  }
  const hasSeconds = parts.length === 6;
  const names = hasSeconds ? UNIX_FIELD_NAMES : UNIX_FIELD_NAMES.slice(1);
  const fields: CronFields = {};
  names.forEach((name, i) => {
    fields[name] = parts[i];
  });
  const engine = names.map((name) => engineField(name, fields[name] as string)).join(' ');
  return { expanded: parts.join(' '), engine, macro, hasSeconds, fields };
}

/** Rewrites cron-parser's messages into "<value> is out of range <min>-<max>" and the like. */
function cleanMessage(message: string, value: string): string {
  const range = /got value (\S+) expected range (\d+-\d+)/.exec(message);
  if (range) return `${range[1]} is out of range ${range[2]}`;
  if (/got range NaN/.test(message) || /Invalid range/.test(message)) return `malformed range in '${value}'`;
  if (/Invalid characters/.test(message)) return `'${value}' is not a valid value`;
  if (/repeat at every 0/.test(message)) return `step must be a positive integer in '${value}'`;
  return message.replace(/^(Cron\w+ )?(Constraint|Validation) error, /, '');
}

/** Checks one field alone; throws CronSyntaxError naming the field. */
export function checkField(name: UnixFieldName, value: string): void {
  const fail = (why: string): never => {
    throw new CronSyntaxError(`${name} field: ${why}`, name);
  };
  if (value === '') fail('empty value');
  if (/\s/.test(value)) fail(`'${value}' contains whitespace`);
  for (const item of value.split(',')) {
    // Hashed values (H) are random without a seed: refused to keep results deterministic.
    if (/^h/i.test(item)) fail(`hashed values (H) are not supported in '${value}'`);
    const step = /\/(\d+)$/.exec(item);
    const span = SPAN[name].max - SPAN[name].min + 1;
    if (step && Number(step[1]) > span) {
      fail(`step ${step[1]} is larger than the field's range ${SPAN[name].min}-${SPAN[name].max}`);
    }
  }
  const probe = UNIX_FIELD_NAMES.map((n) => (n === name ? engineField(name, value) : '*')).join(' ');
  try {
    CronExpressionParser.parse(probe, { tz: 'UTC', currentDate: 0 });
  } catch (err) {
    fail(cleanMessage((err as Error).message, value));
  }
}

/** Checks every field, then the whole expression (cross-field rules such as 30 February). */
export function checkExpression(split: SplitExpression): void {
  for (const name of UNIX_FIELD_NAMES) {
    const value = split.fields[name];
    if (value !== undefined) checkField(name, value);
  }
  try {
    CronExpressionParser.parse(split.engine, { tz: 'UTC', currentDate: 0 });
  } catch (err) {
    const message = (err as Error).message;
    if (/day of month/i.test(message)) {
      throw new CronSyntaxError(
        `dayOfMonth field: day ${split.fields.dayOfMonth} never occurs in month ${split.fields.month}`,
        'dayOfMonth',
      );
    }
    throw new CronSyntaxError(`expression: ${message}`, null);
  }
}
