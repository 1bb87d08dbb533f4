import { parseJsonField, type ToolInput, ToolInputError } from '#tool-kit';
import { emit, type Schema } from './emit.js';
import { type Budget, emptySummary, fold } from './infer.js';
import { openAiLimitWarnings } from './openai-limits.js';

export const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const MAX_LISTED_PATHS = 10;

export interface SchemaResult {
  schema: Schema;
  mode: string;
  /** Samples merged: the array's length in merge mode, else 1. */
  samples: number;
  /** Notes for the caller, e.g. why a strict schema may still be refused by OpenAI. */
  warnings: string[];
}

/** Input as the schema in tool.ts passed it: a sample (JSON text within its length) and a string title. */
export default function run(input: ToolInput, mode: string): SchemaResult {
  const sample = parseJsonField(input.sample, 'sample');
  const title = input.title as string | undefined;

  const root = emptySummary();
  const budget: Budget = { nodes: 0, maxDepth: 0 };
  let samples = 1;
  if (mode === 'merge') {
    if (!Array.isArray(sample) || sample.length === 0) {
      throw new ToolInputError('in merge mode, sample must be a JSON array of one or more samples');
    }
    samples = sample.length;
    for (const item of sample) fold(root, item, budget);
  } else {
    fold(root, sample, budget);
  }

  const options = { strict: mode === 'strict', nullable: [] as string[] };
  // An empty title (`?b=`) means none.
  const schema: Schema = { $schema: DRAFT_07, ...(title ? { title } : {}), ...emit(root, options) };
  const warnings: string[] = [];
  if (options.strict && (schema.type !== 'object' || root.nulls > 0)) {
    warnings.push(
      'OpenAI Structured Outputs requires the root schema to be an object; wrap the sample in one.',
    );
  }
  if (options.strict) warnings.push(...openAiLimitWarnings(schema));
  if (options.nullable.length > 0) {
    const shown = options.nullable.slice(0, MAX_LISTED_PATHS).join(', ');
    const more =
      options.nullable.length > MAX_LISTED_PATHS
        ? ` and ${options.nullable.length - MAX_LISTED_PATHS} more`
        : '';
    warnings.push(
      `Missing from some objects, so required but nullable in strict mode (documents must carry them, as null if need be): ${shown}${more}.`,
    );
  }
  return { schema, mode, samples, warnings };
}
