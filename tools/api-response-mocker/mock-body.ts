import type { ErrorObject } from 'ajv';
import { ToolInputError } from '#tool-kit';
import { findContradiction } from './contradictions.js';
import { type Generated, generateSafe, MAX_VALUES, prepareSchema, seedOf } from './generate.js';
import { checkExpansion, VALIDATED } from './ref-budget.js';
import { repair } from './repair.js';
import { check, checkerFor } from './validator.js';

/** Generations per request at most; each later one has its own seed derived from the first. */
export const MAX_ATTEMPTS = 4;
/** Errors quoted in a note. */
const QUOTED_ERRORS = 3;

export interface Mock {
  body: unknown;
  notes: string[];
}

/**
 * A body generated from the user's schema and checked against it with ajv. The generator
 * does not promise a valid body (it ignores some keywords and gets others wrong), so:
 * a schema that provably admits no value is refused, naming the keyword; a body that
 * breaks the schema is generated again with other seeds, then repaired where cheap; what
 * still breaks it, or a schema the validator cannot read, is said in the notes. The first
 * seed is the one given, so a body that fits at once is the one earlier versions gave.
 */
export function mockFromSchema(schema: Record<string, unknown>, seed: number): Mock {
  const safe = prepareSchema(schema);
  const contradiction = findContradiction(schema);
  if (contradiction !== undefined) throw new ToolInputError(contradiction);
  checkExpansion(schema, VALIDATED);
  const checker = checkerFor(schema);
  // The first attempt's failure is the answer, as before the check existed.
  if ('problem' in checker)
    return { body: generateSafe(safe, seed).value, notes: [unchecked(checker.problem)] };
  const first = generateSafe(safe, seed);
  const checked = check(checker.validate, first.value);
  if ('problem' in checked) return { body: first.value, notes: [unchecked(checked.problem)] };
  let best = { body: first.value, errors: checked.errors, values: first.values };
  let generated = 1;
  // Retries share one value budget, so a large body is not generated four times.
  let spent = first.values;
  while (best.errors.length > 0 && generated < MAX_ATTEMPTS && spent + first.values <= MAX_VALUES) {
    const made = retry(safe, seed, generated);
    if (made === undefined) break;
    generated += 1;
    spent += made.values;
    const result = check(checker.validate, made.value);
    if (!('problem' in result) && result.errors.length < best.errors.length)
      best = { body: made.value, errors: result.errors, values: made.values };
  }
  if (best.errors.length === 0) return { body: best.body, notes: [] };
  const fixed = repair(checker.validate, best.body, best.errors, best.values);
  const notes = fixed.removed.map((r) => `Left out ${r}: no generated value fit its schema.`);
  if (fixed.errors.length > 0) notes.push(describe(fixed.errors, generated));
  return { body: fixed.body, notes };
}

/** A retry with a seed derived from the first; a generator failure only ends the retries. */
function retry(safe: Record<string, unknown>, seed: number, attempt: number): Generated | undefined {
  try {
    return generateSafe(safe, seedOf(`${seed}/${attempt}`));
  } catch (err) {
    if (err instanceof ToolInputError) return undefined;
    throw err;
  }
}

function unchecked(problem: string): string {
  return `The body was not checked against the schema: ${problem}.`;
}

/** ajv's first errors, each naming where in the body, the keyword and where in the schema. */
function describe(errors: ErrorObject[], attempts: number): string {
  const quoted = errors.slice(0, QUOTED_ERRORS).map((e) => {
    const at = e.instancePath === '' ? 'the root' : e.instancePath;
    const name = e.propertyName === undefined ? '' : ` (property name ${JSON.stringify(e.propertyName)})`;
    return `at ${at}${name}, ${e.keyword} (${e.schemaPath}): ${e.message ?? 'invalid'}`;
  });
  const more = errors.length > QUOTED_ERRORS ? `; and ${errors.length - QUOTED_ERRORS} more` : '';
  const which = attempts === 1 ? 'the only body generated' : `the closest of ${attempts} generated bodies`;
  return `The body does not fit the schema (${which}). First errors: ${quoted.join('; ')}${more}.`;
}
