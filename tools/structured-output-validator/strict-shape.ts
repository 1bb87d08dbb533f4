/**
 * How the strict dialects (OpenAI, Anthropic) see a schema's shape: its declared types,
 * whether it is an object, and which subschemas they descend into. Shared by the provider
 * lints and strict-fix.ts, so that the checker and the fixer agree on what an object is.
 */
import { isPlainObject, pointerSegment } from './json-input.js';

export type Schema = Record<string, unknown>;

/** The declared types, whether `type` is one name or a list; entries that are not strings are skipped. */
export const typesOf = (s: Schema): string[] =>
  typeof s.type === 'string'
    ? [s.type]
    : Array.isArray(s.type)
      ? s.type.filter((t) => typeof t === 'string')
      : [];

/** An object schema as the strict modes see it: declared `type: object`, or object keywords without a type. */
export function isObjectSchema(s: Schema): boolean {
  const types = typesOf(s);
  if (types.length > 0) return types.includes('object');
  return 'properties' in s || 'additionalProperties' in s || 'required' in s;
}

/** Subschemas in the positions the strict dialects allow: properties, items, anyOf. */
export function* children(s: Schema, p: string): Generator<[unknown, string, boolean]> {
  // [child, pointer, one object level deeper?]
  const nested = isObjectSchema(s);
  if (isPlainObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties))
      yield [v, `${p}/properties/${pointerSegment(k)}`, nested];
  }
  if (isPlainObject(s.items)) yield [s.items, `${p}/items`, false];
  if (Array.isArray(s.anyOf)) for (const [i, v] of s.anyOf.entries()) yield [v, `${p}/anyOf/${i}`, false];
}

/** The entries of `$defs` and `definitions`, with their pointers and names. */
export function* definitions(s: Schema, p: string): Generator<[unknown, string, string]> {
  for (const kw of ['$defs', 'definitions']) {
    const map = s[kw];
    if (!isPlainObject(map)) continue;
    for (const [k, v] of Object.entries(map)) yield [v, `${p}/${kw}/${pointerSegment(k)}`, k];
  }
}
