import { isObject } from '../shared/is-object.js';
import type { JsonSchema } from '../shared/tool-def-schema.js';

/**
 * The JSON types a schema admits, read from its `type`, `const`, `enum`, `anyOf` and
 * `oneOf` (docs/api.md, "Pipelines"): what a pipeline's definition check compares. null:
 * the schema does not say (no `type` anywhere), so nothing can be promised of it.
 */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export function typesOf(schema: unknown): Set<JsonType> | null {
  if (!isObject(schema)) return null;
  if (typeof schema.type === 'string') return new Set([schema.type as JsonType]);
  if (Array.isArray(schema.type)) return new Set(schema.type as JsonType[]);
  if ('const' in schema) return new Set([typeOfValue(schema.const)]);
  if (Array.isArray(schema.enum)) return new Set(schema.enum.map(typeOfValue));
  const branches = (
    Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null
  ) as unknown[] | null;
  if (!branches) return null;
  const all = new Set<JsonType>();
  for (const b of branches) {
    const t = typesOf(b);
    if (!t) return null;
    for (const x of t) all.add(x);
  }
  return all;
}

export function typeOfValue(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** Every type of `from` is one `to` admits (an integer is a number); `to` null admits anything. */
export function fits(from: Set<JsonType>, to: Set<JsonType> | null): boolean {
  if (!to) return true;
  for (const t of from) if (!to.has(t) && !(t === 'integer' && to.has('number'))) return false;
  return true;
}

export function typeWords(types: Set<JsonType> | null): string {
  return types ? [...types].sort().join(' | ') : 'undeclared';
}

/**
 * The sub-schema a JSON Pointer's segments lead to inside `schema`: through `properties`
 * (a declared member), `items` (an index into an array) and the branches of `anyOf`/`oneOf`
 * (the first that resolves). null: the schema declares nothing there.
 */
export function schemaAt(schema: JsonSchema, segments: readonly string[]): JsonSchema | null {
  let at: unknown = schema;
  for (const segment of segments) {
    if (!isObject(at)) return null;
    const branches = (Array.isArray(at.anyOf) ? at.anyOf : Array.isArray(at.oneOf) ? at.oneOf : null) as
      | unknown[]
      | null;
    if (branches && !isObject(at.properties) && at.items === undefined) {
      const found = branches
        .map((b) => (isObject(b) ? schemaAt(b, [segment]) : null))
        .find((x) => x !== null);
      at = found ?? null;
      continue;
    }
    if (isObject(at.properties) && Object.hasOwn(at.properties, segment)) at = at.properties[segment];
    else if (isObject(at.items) && /^(0|[1-9]\d*)$/.test(segment)) at = at.items;
    else return null;
  }
  return isObject(at) ? at : null;
}
