import type { ErrorObject, ValidateFunction } from 'ajv';
import { isObject } from './kinds.js';
import { numberCandidates } from './numeric.js';
import { check } from './validator.js';

/** Validations a repair may spend on a small body. */
export const MAX_REPAIR_TRIES = 40;
/** Values copied and validated over all tries: a large body gets fewer tries. */
const MAX_REPAIR_VALUES = 40_000;
/** Errors looked at per round: the first ones are where the body is worst. */
const ERRORS_PER_ROUND = 8;
const NUMBER_KEYWORDS = new Set(['multipleOf', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/** Errors a fix must never add: a left-out property or item could cause them. */
const SHRINK_ERRORS = new Set(['required', 'minItems', 'minProperties', 'minContains', 'contains']);

export interface Repaired {
  body: unknown;
  errors: ErrorObject[];
  /** What was left out of the body, for the notes. */
  removed: string[];
}

/** A value put at `path`, or the property or item there left out (`removed` says so in the notes). */
type Fix = { path: string[]; value: unknown } | { path: string[]; remove: true; removed?: string };

/**
 * Cheap repairs of the closest generated body, each kept only if the body then breaks
 * fewer rules and no new `required`/`min*` one: a number rebuilt from its node's bounds and
 * `multipleOf`, a `const` or `enum` value put in place, a duplicate item or an optional
 * property that fits nothing left out. Deterministic: errors and candidates come in a
 * fixed order.
 */
export function repair(
  validate: ValidateFunction,
  body: unknown,
  errors: ErrorObject[],
  values: number,
): Repaired {
  let current: Repaired = { body, errors, removed: [] };
  const budget = Math.min(MAX_REPAIR_TRIES, Math.floor(MAX_REPAIR_VALUES / Math.max(values, 1)));
  let tries = 0;
  for (let improved = true; improved && current.errors.length > 0 && tries < budget; ) {
    improved = false;
    for (const error of current.errors.slice(0, ERRORS_PER_ROUND)) {
      for (const fix of fixesFor(error)) {
        if (++tries > budget) return current;
        const next = apply(current.body, fix);
        const result = check(validate, next);
        if ('problem' in result || !better(current.errors, result.errors)) continue;
        const note = 'remove' in fix ? fix.removed : undefined;
        const removed = note === undefined ? current.removed : [...current.removed, note];
        current = { body: next, errors: result.errors, removed };
        improved = true;
        break;
      }
      if (improved) break;
    }
  }
  return current;
}

const signature = (e: ErrorObject): string => `${e.keyword} ${e.instancePath} ${e.schemaPath}`;

function better(before: ErrorObject[], after: ErrorObject[]): boolean {
  if (after.length >= before.length) return false;
  const known = new Set(before.map(signature));
  return after.every((e) => !SHRINK_ERRORS.has(e.keyword) || known.has(signature(e)));
}

function fixesFor(error: ErrorObject): Fix[] {
  const path = tokens(error.instancePath);
  const schema = error.parentSchema ?? {};
  const fixes: Fix[] = [];
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const integer = types.includes('integer') && !types.includes('number');
  if (typeof error.data === 'number' && (NUMBER_KEYWORDS.has(error.keyword) || error.keyword === 'type')) {
    for (const value of numberCandidates(schema, error.data, integer)) fixes.push({ path, value });
  }
  if (error.keyword === 'const') fixes.push({ path, value: schema.const });
  if (error.keyword === 'enum' && Array.isArray(schema.enum))
    for (const value of schema.enum.slice(0, 4)) fixes.push({ path, value });
  if (error.keyword === 'uniqueItems') {
    const { i, j } = error.params as { i: number; j: number };
    fixes.push({ path: [...path, String(Math.max(i, j))], remove: true });
  }
  const name = error.propertyName;
  const where = error.instancePath === '' ? 'the root' : error.instancePath;
  if (name !== undefined)
    fixes.push({
      path: [...path, name],
      remove: true,
      removed: `property ${JSON.stringify(name)} of ${where}`,
    });
  else if (path.length > 0) fixes.push({ path, remove: true, removed: where });
  return fixes;
}

/** ajv's instancePath as keys; `~1` and `~0` are `/` and `~`. */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A copy of the body with the fix applied (the body is JSON: a round trip copies it). */
function apply(body: unknown, fix: Fix): unknown {
  const copyOf = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;
  if (fix.path.length === 0) return 'remove' in fix ? body : copyOf(fix.value);
  const copy = copyOf(body);
  let parent: unknown = copy;
  for (const key of fix.path.slice(0, -1)) {
    parent = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[key] : undefined;
  }
  const last = fix.path.at(-1)!;
  if (Array.isArray(parent)) {
    if ('remove' in fix) parent.splice(Number(last), 1);
    else parent[Number(last)] = copyOf(fix.value);
  } else if (isObject(parent) && Object.hasOwn(parent, last)) {
    if ('remove' in fix) delete parent[last];
    // Defined, not assigned: assigning a key named __proto__ would set the prototype.
    else
      Object.defineProperty(parent, last, {
        value: copyOf(fix.value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return copy;
}
