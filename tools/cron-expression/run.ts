/** cron-expression: parse (explain + next runs) and build (fields → expression). */
import { type ToolInput, ToolInputError } from '#tool-kit';
import { joinFields, readBuildFields } from './build.js';
import {
  type CronFields,
  CronSyntaxError,
  checkExpression,
  checkField,
  FIELD_NAMES,
  type FieldName,
  type SplitExpression,
  splitExpression,
} from './cron-fields.js';
import { describe } from './describe.js';
import { nextRuns, resolveFrom, resolveTimezone } from './schedule.js';

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

/** The schema cannot require the expression (build mode goes without it), nor refuse a blank one. */
function readExpression(value: string | undefined): string {
  const expression = value?.trim();
  if (!expression) throw new ToolInputError('expression is required, e.g. "*/15 9-17 * * 1-5"');
  return expression;
}

/** A wrong expression is a result (`valid: false`, the faulty field named), not an error. */
function parse(input: ToolInput, opts: Options) {
  const expression = readExpression(input.expression as string | undefined);
  let split: SplitExpression | null = null;
  try {
    split = splitExpression(expression);
    checkExpression(split);
  } catch (err) {
    if (!(err instanceof CronSyntaxError)) throw err;
    return {
      valid: false,
      expression,
      error: err.message,
      field: err.field,
      description: null,
      fields: split ? orderedFields(split.fields) : null,
      nextRuns: [],
    };
  }
  return { valid: true, expression, macro: split.macro, ...schedule(split, opts) };
}

/** Build refuses bad fields with INVALID_INPUT: there is no expression to report on. */
function build(input: ToolInput, opts: Options) {
  const fields = readBuildFields(input.fields);
  let split: SplitExpression;
  try {
    // Each field alone first: a value with a space would otherwise shift the others.
    for (const [name, value] of Object.entries(fields) as [FieldName, string][]) checkField(name, value);
    split = splitExpression(joinFields(fields));
    checkExpression(split);
  } catch (err) {
    if (err instanceof CronSyntaxError) throw new ToolInputError(err.message);
    throw err;
  }
  return { valid: true, expression: split.expanded, ...schedule(split, opts) };
}

/** Input as the schema in tool.ts passed it: strings within their lengths, count in range, from a date-time. */
export default async function run(input: ToolInput, mode: string) {
  const opts: Options = {
    timezone: resolveTimezone(input.timezone as string | undefined),
    count: input.count as number,
    from: resolveFrom(input.from as string | undefined),
  };
  return mode === 'build' ? build(input, opts) : parse(input, opts);
}
