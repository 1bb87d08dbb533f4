import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { regExpEngine } from './regexp-engine.js';

// ajv-formats is CommonJS: under NodeNext its default export is the module object's `default`.
const addFormats = ajvFormats.default as unknown as (ajv: unknown) => unknown;

/** Compiled validators kept: a mock is often asked for again with another route or target. */
export const CACHE_MAX = 32;

/** A validator for the user's schema, or why the body cannot be checked against it. */
export type Checker = { validate: ValidateFunction } | { problem: string };
export type Checked = { errors: ErrorObject[] } | { problem: string };

const cache = new Map<string, Checker>();

/**
 * ajv options: every error (the closest of several bodies is the one with fewest) with the
 * subschema that failed (repairs read its bounds); no meta-schema check, since the sanitiser
 * already refused what the generator cannot read, and a draft-04 `$schema` must not make ajv
 * look the meta-schema up. ownProperties: without it ajv reads inherited members, so `{}`
 * passes `required: ["constructor"]`. No `loadSchema`: a reference is never fetched.
 */
const OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: false,
  logger: false,
  validateSchema: false,
  ownProperties: true,
  code: { regExp: regExpEngine },
};

function newAjv(schema: Record<string, unknown>, text: string): Ajv {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : undefined;
  // Without $schema, prefixItems shows 2020-12 is meant: draft-07 would ignore it and
  // apply a sibling `items` to every item.
  const draft2020 = declared === undefined ? text.includes('"prefixItems"') : declared.includes('2020-12');
  const ajv = draft2020
    ? new Ajv2020(OPTIONS)
    : declared?.includes('2019-09')
      ? new Ajv2019(OPTIONS)
      : new Ajv(OPTIONS);
  addFormats(ajv);
  // The three classes differ only in the vocabularies they load.
  return ajv as Ajv;
}

/**
 * The validator for the user's schema as written (not the sanitised copy): keywords the
 * generator ignores, such as `propertyNames`, are checked too. A fresh ajv per schema, as
 * an `$id` registers itself in its instance.
 */
export function checkerFor(schema: Record<string, unknown>): Checker {
  const text = JSON.stringify(schema);
  const key = createHash('sha256').update(text).digest('base64');
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-insert: Map order is the recency order
    cache.set(key, hit);
    return hit;
  }
  let checker: Checker;
  try {
    checker = { validate: newAjv(schema, text).compile(schema) };
  } catch (err) {
    checker = { problem: `the validator cannot compile the schema: ${(err as Error).message.slice(0, 200)}` };
  }
  cache.set(key, checker);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return checker;
}

export function check(validate: ValidateFunction, body: unknown): Checked {
  try {
    return { errors: validate(body) ? [] : [...(validate.errors ?? [])] };
  } catch (err) {
    // A $ref cycle that never moves into the data recurses until the stack ends.
    if (err instanceof RangeError) return { problem: 'validating it recursed too deeply' };
    throw err;
  }
}

export function cacheSize(): number {
  return cache.size;
}
