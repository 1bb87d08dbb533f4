/** cron-expression: parse (explain + next runs), build (fields → expression) and convert (between dialects). */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { joinFields, readBuildFields } from './build.js';
import { convert } from './convert.js';
import {
  checkExpression,
  checkField,
  type SplitExpression,
  splitExpression,
  type UnixFieldName,
} from './cron-fields.js';
import { detectDialect, QUARTZ_HINT } from './dialect-detect.js';
import { type DialectSchedule, parseEventBridge, parseQuartz } from './dialects.js';
import { dialectSchedule, invalid, type Options, schedule } from './run-results.js';
import { resolveFrom, resolveTimezone } from './schedule.js';
import { CronSyntaxError } from './syntax-error.js';
import type { Dialect } from './tool.js';

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
  if (mode !== 'build' && input.fields !== undefined) {
    throw new ToolInputError(`fields is for build mode (/api/cron-expression/build/), not ${mode}`);
  }
  if (mode === 'build' && input.expression !== undefined) {
    throw new ToolInputError(
      'expression is not for build mode, which builds one from fields; use parse mode',
    );
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
