/**
 * Mode `fix`: the OpenAI strict-mode version of a schema, with the list of changes made.
 *
 * Follows OpenAI's own transforms: openai-python `to_strict_json_schema`
 * (src/openai/lib/_pydantic.py: every property required, additionalProperties: false added,
 * a one-branch allOf merged, $defs/definitions/items/anyOf walked) and openai-node
 * `toStrictJsonSchema` (src/lib/transform.ts, v7.57, used by zodResponseFormat: the same keyword
 * denylist). Their canonical forms that strict mode does not need (a one-element type list
 * unwrapped, `default: null` dropped) are left as written: the openai-strict lint accepts them,
 * and a schema the lint accepts is answered unchanged. Where those refuse (an optional
 * property that does not accept null, an unsupported keyword), this goes one step further and
 * makes the change, listing it: the optional property becomes required and nullable (as
 * zod's `.optional().nullable()` comes out of zodResponseFormat: `type: [T, "null"]` for a bare
 * type, else `anyOf: [schema, {type: "null"}]`), the keyword is removed (oneOf becomes anyOf).
 */
import { isDeepStrictEqual } from 'node:util';
import { ToolInputError } from '#tool-kit';
import { boundText, quoteName } from './issue-list.js';
import { isPlainObject, pointerSegment } from './json-input.js';
import { OPENAI_FORMATS, OPENAI_UNSUPPORTED } from './provider-rules.js';
import { isObjectSchema, type Schema } from './strict-shape.js';

export interface Change {
  path: string;
  action: 'added' | 'removed' | 'changed';
  keyword: string;
  message: string;
}

export const MAX_CHANGES = 100;

export class ChangeList {
  readonly changes: Change[] = [];
  count = 0;
  add(path: string, action: Change['action'], keyword: string, message: string): void {
    this.count++;
    if (this.changes.length < MAX_CHANGES)
      this.changes.push({ path, action, keyword, message: boundText(message) });
  }
}

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples']);

/** Whether the schema already accepts null (conservative, as openai-node's isNullable). */
function acceptsNull(s: unknown): boolean {
  if (typeof s === 'boolean') return s;
  if (!isPlainObject(s)) return false;
  if ('$ref' in s) return false;
  const t = s.type;
  if (t !== undefined && t !== 'null' && !(Array.isArray(t) && t.includes('null'))) return false;
  if ('const' in s && s.const !== null) return false;
  if (Array.isArray(s.enum) && !s.enum.includes(null)) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some(acceptsNull)) return false;
  return !('not' in s || 'if' in s || 'allOf' in s || 'oneOf' in s);
}

/** The schema that also accepts null, in the form zodResponseFormat gives `.nullable()`. */
function nullable(s: Schema): Schema {
  const keys = Object.keys(s);
  const bare = keys.every((k) => k === 'type' || k === 'description' || k === 'title');
  if (bare && typeof s.type === 'string') return { ...s, type: [s.type, 'null'] };
  if (bare && Array.isArray(s.type)) return { ...s, type: [...s.type, 'null'] };
  if (Array.isArray(s.anyOf) && keys.every((k) => k === 'anyOf' || ANNOTATIONS.has(k))) {
    return { ...s, anyOf: [...s.anyOf, { type: 'null' }] };
  }
  const outer: Schema = {};
  const inner: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (ANNOTATIONS.has(k)) outer[k] = v;
    else inner[k] = v;
  }
  return { anyOf: [inner, { type: 'null' }], ...outer };
}

const has = (s: Schema, k: string) => Object.hasOwn(s, k);

/** Fixes one schema node in place; `p` is its pointer in the given document. */
function fixNode(s: Schema, p: string, log: ChangeList): void {
  for (const kw of ['$defs', 'definitions']) {
    const map = s[kw];
    if (!isPlainObject(map)) continue;
    for (const [k, v] of Object.entries(map))
      if (isPlainObject(v)) fixNode(v, `${p}/${kw}/${pointerSegment(k)}`, log);
  }
  // allOf with one branch: merged into its parent (openai-python); more branches cannot be kept.
  // Subschemas that move are fixed where they stand first, so that their changes name their
  // place in the given document (fixing them again after the move changes nothing).
  const moving = [
    ...(Array.isArray(s.allOf) && s.allOf.length === 1 ? ['allOf'] : []),
    ...(has(s, 'anyOf') ? [] : ['oneOf']),
    'items',
  ];
  for (const kw of moving) {
    const list = s[kw];
    if (Array.isArray(list)) {
      for (const [i, v] of list.entries()) if (isPlainObject(v)) fixNode(v, `${p}/${kw}/${i}`, log);
    }
  }
  if (Array.isArray(s.allOf) && s.allOf.length === 1 && isPlainObject(s.allOf[0])) {
    const branch = s.allOf[0];
    delete s.allOf;
    log.add(`${p}/allOf`, 'changed', 'allOf', 'the single allOf branch was merged into its parent schema');
    mergeBranch(s, branch, `${p}/allOf/0`, log);
  }
  // oneOf: strict mode has anyOf only; the choice stays, its exclusivity is lost.
  if (Array.isArray(s.oneOf) && !has(s, 'anyOf')) {
    s.anyOf = s.oneOf;
    delete s.oneOf;
    log.add(
      `${p}/oneOf`,
      'changed',
      'oneOf',
      'oneOf became anyOf (strict mode has no oneOf; exclusivity is not enforced)',
    );
  }
  for (const kw of OPENAI_UNSUPPORTED) {
    if (!has(s, kw)) continue;
    delete s[kw];
    log.add(
      `${p}/${pointerSegment(kw)}`,
      'removed',
      kw,
      `${kw} is not supported in strict mode and was removed`,
    );
  }
  // Tuple items: strict mode has one items schema; the positions become a choice (anyOf).
  if (Array.isArray(s.items)) {
    const entries = s.items.filter(isPlainObject);
    s.items = entries.length === 1 ? entries[0] : { anyOf: entries };
    log.add(
      `${p}/items`,
      'changed',
      'items',
      'tuple items became one items schema (anyOf of the positions); order is not enforced',
    );
  }
  if (typeof s.format === 'string' && !(OPENAI_FORMATS as readonly string[]).includes(s.format)) {
    delete s.format;
    log.add(
      `${p}/format`,
      'removed',
      'format',
      'this format is not supported in strict mode and was removed',
    );
  }
  // Children first, so that a property later wrapped to accept null keeps the pointers of
  // the given document in its changes.
  if (isPlainObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) {
      if (isPlainObject(v)) fixNode(v, `${p}/properties/${pointerSegment(k)}`, log);
    }
  }
  if (isPlainObject(s.items)) fixNode(s.items, `${p}/items`, log);
  if (Array.isArray(s.anyOf)) {
    for (const [i, v] of s.anyOf.entries()) if (isPlainObject(v)) fixNode(v, `${p}/anyOf/${i}`, log);
  }
  if (isObjectSchema(s)) {
    if (!has(s, 'properties')) {
      s.properties = {};
      log.add(
        p,
        'added',
        'properties',
        'properties: {} added (strict mode reads an object without it as having none)',
      );
    }
    if (!has(s, 'additionalProperties')) {
      s.additionalProperties = false;
      log.add(p, 'added', 'additionalProperties', 'additionalProperties: false added');
    } else if (s.additionalProperties !== false) {
      s.additionalProperties = false;
      log.add(
        `${p}/additionalProperties`,
        'changed',
        'additionalProperties',
        'additionalProperties set to false (strict mode has no open objects: extra keys are now refused)',
      );
    }
    const props = isPlainObject(s.properties) ? s.properties : undefined;
    const required = Array.isArray(s.required) ? s.required : [];
    const listed = new Set(required);
    if (props) {
      for (const [key, sub] of Object.entries(props)) {
        if (listed.has(key)) continue;
        const at = `${p}/properties/${pointerSegment(key)}`;
        if (isPlainObject(sub) && !acceptsNull(sub)) {
          props[key] = nullable(sub);
          log.add(
            at,
            'changed',
            'required',
            'the optional property is now required and nullable (send null for "absent")',
          );
        } else
          log.add(
            at,
            'changed',
            'required',
            'the optional property is now required (it already accepts null)',
          );
      }
      for (const name of required) {
        if (typeof name !== 'string' || !Object.hasOwn(props, name)) {
          log.add(
            `${p}/required`,
            'removed',
            'required',
            'a required name that properties does not declare was removed',
          );
        }
      }
      // A complete required list keeps its order; any other becomes the properties' order (as the references do).
      const all = Object.keys(props);
      const complete = required.length === all.length && all.every((k) => listed.has(k));
      if (!has(s, 'required') && all.length === 0) {
        log.add(p, 'added', 'required', 'required: [] added (strict mode needs required on every object)');
      }
      if (!complete || !has(s, 'required')) s.required = all;
    }
  }
}

/**
 * A one-branch allOf's branch into its parent: keywords the parent lacks are taken, properties
 * and required are joined; a keyword both have with different values keeps the parent's, and
 * the branch's is listed as dropped (it would otherwise vanish without a word).
 */
function mergeBranch(s: Schema, branch: Schema, p: string, log: ChangeList): void {
  for (const [k, v] of Object.entries(branch)) {
    if (!has(s, k)) s[k] = v;
    else if (k === 'properties' && isPlainObject(s.properties) && isPlainObject(v)) {
      for (const [name, sub] of Object.entries(v)) {
        if (!Object.hasOwn(s.properties, name)) s.properties[name] = sub;
        else if (!isDeepStrictEqual(s.properties[name], sub))
          dropped(`${p}/properties/${pointerSegment(name)}`, name, log);
      }
    } else if (k === 'required' && Array.isArray(s.required) && Array.isArray(v)) {
      s.required = [...new Set([...s.required, ...v])];
    } else if (!isDeepStrictEqual(s[k], v)) dropped(`${p}/${pointerSegment(k)}`, k, log);
  }
}

function dropped(path: string, name: string, log: ChangeList): void {
  log.add(
    path,
    'removed',
    'allOf',
    `${quoteName(name)} of the allOf branch differs from the parent's and was dropped`,
  );
}

/** `type: ["object"]` at the root: the lint wants the root's type to be "object" itself. */
function rootType(s: Schema, base: string, log: ChangeList): void {
  if (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'object') {
    s.type = 'object';
    log.add(`${base}/type`, 'changed', 'type', 'the root type ["object"] became "object"');
  }
}

/**
 * The strict version of `schema` (a copy) and its changes. Pointers name places in the given
 * document (`base` is the schema's pointer in it).
 */
export function toStrictSchema(schema: unknown, base: string): { schema: Schema; changes: ChangeList } {
  if (!isPlainObject(schema)) {
    throw new ToolInputError(
      `schema${base ? ` at '${base}'` : ''} must be a JSON Schema object to be fixed (strict mode needs an object schema at the root)`,
    );
  }
  const copy = structuredClone(schema);
  const log = new ChangeList();
  rootType(copy, base, log);
  fixNode(copy, base, log);
  return { schema: copy, changes: log };
}
