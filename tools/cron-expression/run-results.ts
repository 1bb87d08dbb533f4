/**
 * The answers of a run: what parse, build and convert return for a schedule (description,
 * fields, next runs) or for an expression that does not parse (`valid: false`).
 */
import { type CronFields, FIELD_NAMES, type SplitExpression } from './cron-fields.js';
import { describe, describeQuartz, describeRate } from './describe.js';
import type { DialectSchedule } from './dialects.js';
import { nextRuns, rateRuns } from './schedule.js';
import type { CronSyntaxError } from './syntax-error.js';
import type { Dialect } from './tool.js';

export interface Options {
  timezone: string;
  count: number;
  from: Date;
}

/** Fields in cron order, for a stable JSON key order. */
function orderedFields(fields: CronFields): CronFields {
  const out: CronFields = {};
  for (const name of FIELD_NAMES) if (fields[name] !== undefined) out[name] = fields[name];
  return out;
}

/** Description, fields and next runs of a Unix expression. */
export function schedule(split: SplitExpression, opts: Options) {
  const runs = nextRuns(split.engine, opts.timezone, opts.from, opts.count);
  return {
    description: describe(split.engine),
    fields: orderedFields(split.fields),
    hasSeconds: split.hasSeconds,
    timezone: opts.timezone,
    from: opts.from.toISOString(),
    ...runs,
  };
}

/** Description, fields and next runs of a Quartz or EventBridge schedule. */
export function dialectSchedule(parsed: DialectSchedule, opts: Options) {
  const common = { timezone: opts.timezone, from: opts.from.toISOString() };
  if (parsed.kind === 'rate') {
    return {
      description: describeRate(parsed.value, parsed.base),
      fields: null,
      rate: { value: parsed.value, unit: parsed.unit },
      hasSeconds: false,
      ...common,
      nextRuns: rateRuns(parsed.periodMs, opts.timezone, opts.from, opts.count),
      assumption: `rate() has no fixed run times: from (${common.from}) is taken as the schedule's start date, and the runs follow it every ${parsed.value} ${parsed.unit} (a day is 24 hours, whatever DST does)`,
    };
  }
  const runs = nextRuns(parsed.engine, opts.timezone, opts.from, opts.count, undefined, parsed.rules);
  const zoned =
    parsed.dialect === 'eventbridge' && opts.timezone !== 'UTC'
      ? {
          assumption: `EventBridge rules run in UTC; these runs are in ${opts.timezone}, as EventBridge Scheduler runs a schedule with that ScheduleExpressionTimezone (a time skipped by DST does not run, a repeated one runs once)`,
        }
      : {};
  return {
    description: describeQuartz(parsed.quartzText),
    fields: orderedFields(parsed.fields),
    hasSeconds: parsed.dialect === 'quartz',
    ...common,
    ...runs,
    ...zoned,
  };
}

/** A wrong expression is a result (`valid: false`, the faulty field named), not an error. */
export function invalid(
  expression: string,
  err: CronSyntaxError,
  split: SplitExpression | null,
  dialect?: Dialect,
) {
  return {
    valid: false,
    expression,
    ...(dialect ? { dialect } : {}),
    error: err.message,
    field: err.field,
    description: null,
    fields: split ? orderedFields(split.fields) : null,
    nextRuns: [],
  };
}
