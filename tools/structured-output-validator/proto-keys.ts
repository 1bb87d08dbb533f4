/**
 * A property named `__proto__` is data like any other name: JSON.parse defines it as an
 * own key, and the target is checked against it. ajv 8 leaves that key out when it
 * compiles `properties`, `patternProperties` and `dependencies` (and so counts such a
 * property as additional), because its own code would set a prototype by assigning it.
 * Here the key is made visible to ajv without any assignment by that name:
 * - `properties` / `patternProperties`: an equivalent pattern is added that `$ref`s the
 *   original subschema (errors keep its schemaPath, additionalProperties sees it declared);
 * - `dependencies`: ajv's own keyword code, fed maps built with own keys.
 */
import type { Ajv, AnySchema, KeywordCxt } from 'ajv';
import {
  error as dependenciesError,
  validatePropertyDeps,
  validateSchemaDeps,
} from 'ajv/dist/vocabularies/applicator/dependencies.js';
import { hasProtoKey } from '../_shared/json-exact.js';
import { isPlainObject } from './json-input.js';
import { walkSchemas } from './schema-walk.js';

const PROTO = '__proto__';

/**
 * Adds to `s.patternProperties` a pattern for `__proto__` (the exact name when anchored,
 * else any name holding it) under a key the map does not have yet, whose schema is a
 * `$ref` to `#ref`.
 */
function addPattern(s: Record<string, unknown>, anchored: boolean, ref: string): void {
  if (s.patternProperties !== undefined && !isPlainObject(s.patternProperties)) return;
  const map = s.patternProperties ?? {};
  let body = PROTO;
  let key = anchored ? `^${body}$` : body;
  // Non-capturing groups change the spelling, not the language: never overwrite a user's pattern.
  while (Object.hasOwn(map, key)) {
    body = `(?:${body})`;
    key = anchored ? `^${body}$` : body;
  }
  map[key] = { $ref: `#${ref}` };
  s.patternProperties = map;
}

/**
 * The schema as ajv must get it so that `__proto__` properties are checked: the same
 * document when it has no such key, else a rewritten copy (the caller's value is never
 * changed). The copy comes from JSON.parse, which keeps every `__proto__` an own key.
 */
export function exposeProtoKeys<T>(doc: T): T {
  if (!hasProtoKey(doc)) return doc;
  const copy = JSON.parse(JSON.stringify(doc)) as T;
  const found: { s: Record<string, unknown>; ref: string }[] = [];
  walkSchemas(copy, (s, _path, ref) => {
    const named = isPlainObject(s.properties) && Object.hasOwn(s.properties, PROTO);
    const pattern = isPlainObject(s.patternProperties) && Object.hasOwn(s.patternProperties, PROTO);
    if (named || pattern) found.push({ s, ref });
  });
  // Changed after the walk, so that the walk never meets the schemas it adds.
  for (const { s, ref } of found) {
    if (isPlainObject(s.properties) && Object.hasOwn(s.properties, PROTO)) {
      addPattern(s, true, `${ref}/properties/${PROTO}`);
    }
    if (isPlainObject(s.patternProperties) && Object.hasOwn(s.patternProperties, PROTO)) {
      addPattern(s, false, `${ref}/patternProperties/${PROTO}`);
    }
  }
  return copy;
}

/**
 * Replaces ajv's `dependencies` keyword by the same code without the step that drops
 * `__proto__`: the maps it gets are built by Object.fromEntries, which defines own keys
 * (no prototype is set). `before` keeps the keyword's place, so errors keep their order.
 */
export function useOwnDependencies(ajv: Ajv): void {
  ajv.removeKeyword('dependencies');
  ajv.addKeyword({
    keyword: 'dependencies',
    type: 'object',
    schemaType: 'object',
    error: dependenciesError,
    before: 'properties',
    code(cxt: KeywordCxt) {
      // The meta-schema check has run: each value is a list of names or a schema.
      const entries = Object.entries(cxt.schema as Record<string, string[] | AnySchema>);
      const names = entries.filter((e): e is [string, string[]] => Array.isArray(e[1]));
      const schemas = entries.filter((e): e is [string, AnySchema] => !Array.isArray(e[1]));
      validatePropertyDeps(cxt, Object.fromEntries(names));
      validateSchemaDeps(cxt, Object.fromEntries(schemas));
    },
  });
}
