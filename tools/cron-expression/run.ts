/** cron-expression: parse (explain + next runs), build (fields → expression) and convert (between dialects). */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { joinFields, readBuildFields } from './build.js';
import { convert } from './convert.js';
import {
  type CronFields,
  CronSyntaxError,
  checkExpression,
  checkField,
  FIELD_NAMES,
  type SplitExpression,
  splitExpression,
  type UnixFieldName,
} from './cron-fields.js';
import { describe, describeQuartz, describeRate } from './describe.js';
import {
  type DialectSchedule,
  detectDialect,
  parseEventBridge,
  parseQuartz,
  QUARTZ_HINT,
} from './dialects.js';
import { nextRuns, rateRuns, resolveFrom, resolveTimezone } from './schedule.js';
import type { Dialect } from './tool.js';

interface Options {
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

function schedule(split: SplitExpression, opts: Options) {
  const runs = nextRuns(split.expanded, opts.timezone, opts.from, opts.count);
  return {
    description: describe(split.expanded),
    fields: orderedFields(split.fields),
    hasSeconds: split.hasSeconds,
    timezone: opts.timezone,
    from: opts.from.toISOString(),
    ...runs,
  };
}

/** Description, fields and next runs of a Quartz or EventBridge schedule. */
function dialectSchedule(parsed: DialectSchedule, opts: Options) {
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

/** The schema cannot require the expression (build mode goes without it), nor refuse a blank one. */
function readExpression(value: string | undefined): string {
  const expression = value?.trim();
  if (!expression) throw new ToolInputError('expression is required, e.g. "*/15 9-17 * * 1-5"');
  return expression;
}

type Read = { dialect: 'unix'; split: SplitExpression } | { dialect: Dialect; parsed: DialectSchedule };

/** Reads and checks the expression in its dialect; throws CronSyntaxError (a `valid: false` result). */
function read(expression: string, dialect: Dialect, onSplit: (split: SplitExpression) => void): Read {
  if (dialect === 'quartz') return { dialect, parsed: parseQuartz(expression) };
  if (dialect === 'eventbridge') return { dialect, parsed: parseEventBridge(expression) };
  const split = splitExpression(expression);
  onSplit(split);
  checkExpression(split);
  return { dialect: 'unix', split };
}

/** A wrong expression is a result (`valid: false`, the faulty field named), not an error. */
function invalid(expression: string, err: CronSyntaxError, split: SplitExpression | null, dialect?: Dialect) {
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

function parse(input: ToolInput, opts: Options) {
  const expression = readExpression(input.expression as string | undefined);
  const named = input.dialect as Dialect | undefined;
  const dialect = named ?? detectDialect(expression);
  // A Unix expression read without a named dialect answers exactly as before dialects existed.
  const shown = named !== undefined || dialect !== 'unix' ? { dialect } : {};
  const seen: { split: SplitExpression | null } = { split: null };
  let result: Read;
  try {
    result = read(expression, dialect, (s) => {
      seen.split = s;
    });
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    if (named === undefined && /^expression has 7 fields/.test(err.message)) {
      return invalid(expression, new CronSyntaxError(err.message + QUARTZ_HINT, null), null);
    }
    return invalid(expression, err, seen.split, shown.dialect);
  }
  if ('split' in result) {
    return { valid: true, expression, ...shown, macro: result.split.macro, ...schedule(result.split, opts) };
  }
  return { valid: true, expression, ...shown, ...dialectSchedule(result.parsed, opts) };
}

/** Convert: the source read in its dialect, written in `to`, then read there again for its runs. */
function convertMode(input: ToolInput, opts: Options) {
  const expression = readExpression(input.expression as string | undefined);
  const to = input.to as Dialect | undefined;
  if (to === undefined) {
    throw new ToolInputError('to is required in convert mode (generic: b): unix, quartz or eventbridge');
  }
  const from = (input.dialect as Dialect | undefined) ?? detectDialect(expression);
  const seen: { split: SplitExpression | null } = { split: null };
  let source: Read;
  try {
    source = read(expression, from, (s) => {
      seen.split = s;
    });
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    return {
      ...invalid(expression, err, seen.split, from),
      sourceDialect: from,
      original: expression,
      warnings: [],
    };
  }
  const converted = convert('split' in source ? source.split : source.parsed, from, to);
  let target: Read;
  try {
    target = read(converted.expression, to, () => {});
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    throw new ToolInputError(
      `cannot convert to ${to}: ${converted.expression} is not valid there (${err.message})`,
      'UNSUPPORTED_OPTION',
    );
  }
  const runs = 'split' in target ? schedule(target.split, opts) : dialectSchedule(target.parsed, opts);
  return {
    valid: true,
    expression: converted.expression,
    dialect: to,
    sourceDialect: from,
    original: expression,
    warnings: converted.warnings,
    ...runs,
  };
}

/** Build refuses bad fields with INVALID_INPUT: there is no expression to report on. */
function build(input: ToolInput, opts: Options) {
  const fields = readBuildFields(input.fields);
  let split: SplitExpression;
  try {
    // Each field alone first: a value with a space would otherwise shift the others.
    for (const [name, value] of Object.entries(fields) as [UnixFieldName, string][]) checkField(name, value);
    split = splitExpression(joinFields(fields));
    checkExpression(split);
  } catch (err) {
    if (err instanceof CronSyntaxError) throw new ToolInputError(err.message);
    throw err;
  }
  return { valid: true, expression: split.expanded, ...schedule(split, opts) };
}

/** Options of one mode refused in the others, so a misplaced one is not silently ignored. */
function checkModeOptions(input: ToolInput, mode: string): void {
  if (mode !== 'convert' && input.to !== undefined) {
    throw new ToolInputError('to is only for convert mode (/api/cron-expression/convert/)');
  }
  if (mode === 'build' && input.dialect !== undefined) {
    throw new ToolInputError(
      'dialect is not for build mode, which writes Unix expressions; convert the result',
    );
  }
}

/** Input as the schema in tool.ts passed it: strings within their lengths, count in range, from a date-time. */
export default async function run(input: ToolInput, mode: string) {
  checkModeOptions(input, mode);
  const opts: Options = {
    timezone: resolveTimezone(input.timezone as string | undefined),
    count: input.count as number,
    from: resolveFrom(input.from as string | undefined),
  };
  if (mode === 'build') return build(input, opts);
  if (mode === 'convert') return convertMode(input, opts);
  return parse(input, opts);
}
