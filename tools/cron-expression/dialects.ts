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
import type { CronFields } from './cron-fields.js';
import { type CronSchedule, readCron } from './dialect-cron.js';
import { fail } from './dialect-syntax.js';
import { parseRate, type RateSchedule } from './eventbridge-rate.js';

export type DialectSchedule = CronSchedule | RateSchedule;

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
