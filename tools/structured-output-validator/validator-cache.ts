/**
 * Compiled validators per schema, in a small LRU: agents validate many outputs against
 * one schema, and compiling (meta-check + code generation) costs far more than validating.
 * Keys are hashes of the schema text so 64 large schemas do not pin 64 copies of their text.
 */
import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ToolInputError } from '#tool-kit';
import { checkJsonShape, MAX_SCHEMA_DEPTH, readJsonField } from './json-input.js';
import { compileSchemaDocument, type IssueList, mapAjvErrors } from './schema-compile.js';
import { detectSchemaKind, type SchemaKind } from './schema-kind.js';

export const CACHE_MAX = 64;

export interface CachedValidator {
  kind: SchemaKind;
  validate: ValidateFunction;
}

const cache = new Map<string, CachedValidator>();

/** Tools without parameters take no arguments: an empty object is what a model should send. */
const NO_PARAMETERS = { type: 'object' };

function cacheKey(schema: unknown): string {
  const text = typeof schema === 'string' ? `t${schema}` : `v${JSON.stringify(schema)}`;
  return createHash('sha256').update(text).digest('base64');
}

function compile(field: unknown): CachedValidator {
  const doc = readJsonField(field, 'schema');
  checkJsonShape(doc, 'schema', MAX_SCHEMA_DEPTH);
  const target = detectSchemaKind(doc);
  if (target.schema === undefined && target.schemaRequired) {
    throw new ToolInputError(
      `schema is a ${target.kind} without its parameters schema (${target.schemaPath})`,
    );
  }
  // Only a tool may leave its parameters out (SDKs write that as null too); a plain schema
  // of `null` is an error, not "no parameters".
  const none = target.schema === undefined || (target.schema === null && target.kind !== 'json-schema');
  const result = compileSchemaDocument(none ? NO_PARAMETERS : target.schema);
  if (!result.validate) {
    const first = result.issues[0];
    const where = target.schemaPath + (first?.path ?? '');
    const more = result.count > 1 ? ` (and ${result.count - 1} more problems)` : '';
    throw new ToolInputError(
      `schema is not a valid draft-07 JSON Schema: at '${where}': ${first?.message ?? 'invalid'}${more}; mode 'schema' lists every problem`,
    );
  }
  return { kind: target.kind, validate: result.validate };
}

export function getValidator(field: unknown): CachedValidator {
  // A value is shape-checked before hashing: JSON.stringify recurses and must not meet a huge depth.
  if (typeof field !== 'string') checkJsonShape(field, 'schema', MAX_SCHEMA_DEPTH);
  const key = cacheKey(field);
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-insert: Map order is the recency order
    cache.set(key, hit);
    return hit;
  }
  const entry = compile(field);
  cache.set(key, entry);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return entry;
}

export function cacheSize(): number {
  return cache.size;
}

/** Runs a validator; `$async` schemas return a promise that rejects with the errors. */
export async function runValidator(
  validate: ValidateFunction,
  data: unknown,
): Promise<IssueList & { valid: boolean }> {
  let errors: ErrorObject[] | null | undefined;
  try {
    const out: unknown = validate(data);
    if (out instanceof Promise) {
      try {
        await out;
      } catch (err) {
        if (!(err instanceof Ajv.ValidationError)) throw err;
        errors = err.errors as ErrorObject[];
      }
    } else if (out !== true) errors = validate.errors ?? [];
  } catch (err) {
    if (err instanceof RangeError) throw new ToolInputError('target is nested too deeply for this schema');
    throw err;
  }
  return { valid: errors === undefined, ...mapAjvErrors(errors) };
}
