/**
 * The provider dialects' own rules on a schema that is already a valid JSON Schema (or, for
 * Gemini's `parameters`, an OpenAPI 3.0 Schema): what each provider refuses or silently drops.
 * Every problem has a JSON Pointer into the given document. The walks recurse, but the input
 * is depth-checked (MAX_SCHEMA_DEPTH) before, so the stack stays shallow.
 */
import { quote } from '#tool-kit';
import type { IssueCollector } from './issue-list.js';
import { isPlainObject, pointerSegment } from './json-input.js';
import {
  ANTHROPIC_FORMATS,
  ANTHROPIC_STRICT_UNSUPPORTED,
  GEMINI_KEYWORDS,
  GEMINI_PARAMETER_NAME,
  GEMINI_TYPES,
  JSON_TYPES,
  OPENAI_FORMATS,
  OPENAI_LIMITS,
  OPENAI_UNSUPPORTED,
} from './provider-rules.js';

type Schema = Record<string, unknown>;

const q = (text: string) => quote(text, 60);
const typesOf = (s: Schema): string[] =>
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

/** Subschemas in the positions the strict dialects allow: properties, items, anyOf, $defs/definitions. */
function* children(s: Schema, p: string): Generator<[unknown, string, boolean]> {
  // [child, pointer, one object level deeper?]
  const nested = isObjectSchema(s);
  if (isPlainObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties))
      yield [v, `${p}/properties/${pointerSegment(k)}`, nested];
  }
  if (isPlainObject(s.items)) yield [s.items, `${p}/items`, false];
  if (Array.isArray(s.anyOf)) for (const [i, v] of s.anyOf.entries()) yield [v, `${p}/anyOf/${i}`, false];
}

function* definitions(s: Schema, p: string): Generator<[unknown, string, string]> {
  for (const kw of ['$defs', 'definitions']) {
    const map = s[kw];
    if (!isPlainObject(map)) continue;
    for (const [k, v] of Object.entries(map)) yield [v, `${p}/${kw}/${pointerSegment(k)}`, k];
  }
}

/**
 * OpenAI Structured Outputs strict mode. `base`: pointer of the schema in the document.
 * Follows the documented rules (root object, every property required, additionalProperties
 * false, the keyword subset, the limits) and what openai-node's toStrictJsonSchema refuses.
 */
export function lintOpenAiStrict(root: unknown, base: string, out: IssueCollector): void {
  if (!isPlainObject(root)) {
    out.add(base, 'type', 'the root of a strict schema must be an object schema with type "object"');
    return;
  }
  if ('anyOf' in root)
    out.add(`${base}/anyOf`, 'anyOf', 'the root must not be anyOf: wrap the union in a property');
  if ('$ref' in root && !('type' in root)) {
    out.add(`${base}/$ref`, '$ref', 'the root must be an object schema itself, not a $ref');
  } else if (root.type !== 'object') {
    out.add(`${base}/type`, 'type', 'the root of a strict schema must have type "object"');
  }
  const totals = { properties: 0, chars: 0, enumValues: 0 };

  const visit = (node: unknown, p: string, depth: number): void => {
    if (typeof node === 'boolean') {
      out.add(p, 'type', 'boolean schemas are not supported in strict mode: give an object schema');
      return;
    }
    if (!isPlainObject(node)) return;
    for (const kw of OPENAI_UNSUPPORTED) {
      if (kw in node) out.add(`${p}/${pointerSegment(kw)}`, kw, `${kw} is not supported in strict mode`);
    }
    const types = typesOf(node);
    for (const t of types) {
      if (!(JSON_TYPES as readonly string[]).includes(t))
        out.add(`${p}/type`, 'type', `type ${q(t)} is not supported`);
    }
    const typed = types.length > 0 || ['anyOf', '$ref', 'enum', 'const'].some((k) => k in node);
    if (!typed)
      out.add(p, 'type', 'every schema needs a type (or anyOf, $ref, enum or const) in strict mode');
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
      out.add(`${p}/$ref`, '$ref', 'only local $refs (#/$defs/...) are supported');
    }
    let level = depth;
    if (isObjectSchema(node)) {
      level = depth + 1;
      if (level === OPENAI_LIMITS.nesting + 1) {
        out.add(p, 'limit', `objects are nested more than ${OPENAI_LIMITS.nesting} levels deep`, {
          limit: OPENAI_LIMITS.nesting,
        });
      }
      if (node.additionalProperties !== false) {
        const at = 'additionalProperties' in node ? `${p}/additionalProperties` : p;
        out.add(at, 'additionalProperties', 'every object must set additionalProperties: false');
      }
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      if (isPlainObject(node.properties)) {
        for (const key of Object.keys(node.properties)) {
          totals.properties++;
          totals.chars += key.length;
          if (!required.has(key)) {
            out.add(
              `${p}/properties/${pointerSegment(key)}`,
              'required',
              `property ${q(key)} must be listed in required (strict mode has no optional properties: make it nullable instead)`,
              { missingProperty: key.slice(0, 200) },
            );
          }
        }
      }
    }
    if (types.includes('array')) {
      if (Array.isArray(node.items))
        out.add(`${p}/items`, 'items', 'tuple items (an array) are not supported');
      else if (!('items' in node)) out.add(p, 'items', 'an array schema needs items in strict mode');
    }
    if (typeof node.format === 'string' && !(OPENAI_FORMATS as readonly string[]).includes(node.format)) {
      out.add(
        `${p}/format`,
        'format',
        `format ${q(node.format)} is not supported; supported: ${OPENAI_FORMATS.join(', ')}`,
      );
    }
    if (Array.isArray(node.enum)) {
      totals.enumValues += node.enum.length;
      let enumChars = 0;
      let strings = 0;
      for (const v of node.enum) {
        if (typeof v === 'string') {
          strings++;
          enumChars += v.length;
        }
      }
      totals.chars += enumChars;
      if (strings > OPENAI_LIMITS.largeEnum && enumChars > OPENAI_LIMITS.largeEnumChars) {
        out.add(
          `${p}/enum`,
          'limit',
          `an enum of more than ${OPENAI_LIMITS.largeEnum} strings may have at most ${OPENAI_LIMITS.largeEnumChars} characters in all (has ${enumChars})`,
        );
      }
    }
    if (typeof node.const === 'string') totals.chars += node.const.length;
    for (const [child, cp, deeper] of children(node, p)) visit(child, cp, deeper ? level : depth);
    for (const [child, cp, name] of definitions(node, p)) {
      totals.chars += name.length;
      visit(child, cp, 0);
    }
  };
  visit(root, base, 0);

  if (totals.properties > OPENAI_LIMITS.properties) {
    out.add(
      base,
      'limit',
      `the schema has ${totals.properties} object properties; at most ${OPENAI_LIMITS.properties}`,
    );
  }
  if (totals.chars > OPENAI_LIMITS.stringLength) {
    out.add(
      base,
      'limit',
      `property names, definition names, enum and const values total ${totals.chars} characters; at most ${OPENAI_LIMITS.stringLength}`,
    );
  }
  if (totals.enumValues > OPENAI_LIMITS.enumValues) {
    out.add(
      base,
      'limit',
      `the schema has ${totals.enumValues} enum values; at most ${OPENAI_LIMITS.enumValues}`,
    );
  }
}

/**
 * Gemini `parameters`: an OpenAPI 3.0 Schema subset. Unknown keywords, type arrays, $ref,
 * non-string enums and undeclared required names are reported.
 */
export function lintGeminiSchema(root: unknown, base: string, out: IssueCollector): void {
  if (!isPlainObject(root)) {
    out.add(base, 'type', 'parameters must be a Schema object with type OBJECT');
    return;
  }
  if (typeof root.type !== 'string' || root.type.toUpperCase() !== 'OBJECT') {
    out.add(`${base}/type`, 'type', 'parameters must have type OBJECT (or "object")');
  }
  if (isPlainObject(root.properties)) {
    for (const key of Object.keys(root.properties)) {
      if (!GEMINI_PARAMETER_NAME.test(key)) {
        out.add(
          `${base}/properties/${pointerSegment(key)}`,
          'propertyName',
          `parameter name ${q(key)} must start with a letter or _ and hold only letters, digits and _ (at most 64)`,
        );
      }
    }
  }
  const visit = (node: unknown, p: string): void => {
    if (!isPlainObject(node)) {
      out.add(p, 'type', 'a Schema must be an object');
      return;
    }
    for (const key of Object.keys(node)) {
      if (!(GEMINI_KEYWORDS as readonly string[]).includes(key)) {
        out.add(
          `${p}/${pointerSegment(key)}`,
          key,
          `${q(key)} is not a field of Gemini's Schema (OpenAPI 3.0 subset)`,
        );
      }
    }
    if ('type' in node) {
      if (Array.isArray(node.type)) {
        out.add(`${p}/type`, 'type', 'type must be one type, not a list: use nullable: true for null');
      } else if (
        typeof node.type !== 'string' ||
        !(GEMINI_TYPES as readonly string[]).includes(node.type.toUpperCase())
      ) {
        out.add(`${p}/type`, 'type', `type must be one of ${GEMINI_TYPES.join(', ')}`);
      }
    }
    if ('nullable' in node && typeof node.nullable !== 'boolean') {
      out.add(`${p}/nullable`, 'nullable', 'nullable must be a boolean');
    }
    if ('enum' in node) {
      if (!Array.isArray(node.enum) || node.enum.some((v) => typeof v !== 'string')) {
        out.add(`${p}/enum`, 'enum', 'enum must be a list of strings');
      }
    }
    if ('required' in node) {
      const props = isPlainObject(node.properties) ? node.properties : {};
      if (!Array.isArray(node.required))
        out.add(`${p}/required`, 'required', 'required must be a list of names');
      else {
        for (const [i, name] of node.required.entries()) {
          if (typeof name !== 'string' || !Object.hasOwn(props, name)) {
            out.add(
              `${p}/required/${i}`,
              'required',
              `required names ${q(String(name))}, which properties does not declare`,
            );
          }
        }
      }
    }
    if ('items' in node && !isPlainObject(node.items)) {
      out.add(`${p}/items`, 'items', 'items must be one Schema (tuples are not supported)');
    }
    if (isPlainObject(node.properties)) {
      for (const [k, v] of Object.entries(node.properties)) visit(v, `${p}/properties/${pointerSegment(k)}`);
    } else if ('properties' in node)
      out.add(`${p}/properties`, 'properties', 'properties must be a map of Schemas');
    if (isPlainObject(node.items)) visit(node.items, `${p}/items`);
    if (Array.isArray(node.anyOf)) for (const [i, v] of node.anyOf.entries()) visit(v, `${p}/anyOf/${i}`);
  };
  visit(root, base);
}

/** A JSON Schema tool input: the root must be an object schema (Anthropic, MCP, Gemini parametersJsonSchema). */
export function lintObjectRoot(root: unknown, base: string, out: IssueCollector, what: string): void {
  if (!isPlainObject(root) || root.type !== 'object') {
    out.add(
      isPlainObject(root) ? `${base}/type` : base,
      'type',
      `${what} must be a JSON Schema with type "object"`,
    );
  }
}

/**
 * Anthropic strict tool use (`strict: true`): the structured-outputs subset. Objects closed
 * with additionalProperties: false, no numeric/length constraints, minItems only 0 or 1,
 * listed formats only, no recursive schemas.
 */
export function lintAnthropicStrict(root: unknown, base: string, out: IssueCollector): void {
  const visit = (node: unknown, p: string): void => {
    if (!isPlainObject(node)) return;
    for (const kw of ANTHROPIC_STRICT_UNSUPPORTED) {
      if (kw in node) out.add(`${p}/${kw}`, kw, `${kw} is not supported with strict: true`);
    }
    if ('minItems' in node && node.minItems !== 0 && node.minItems !== 1) {
      out.add(`${p}/minItems`, 'minItems', 'with strict: true, minItems may only be 0 or 1');
    }
    if (isObjectSchema(node) && node.additionalProperties !== false) {
      const at = 'additionalProperties' in node ? `${p}/additionalProperties` : p;
      out.add(
        at,
        'additionalProperties',
        'with strict: true, every object must set additionalProperties: false',
      );
    }
    if (typeof node.format === 'string' && !(ANTHROPIC_FORMATS as readonly string[]).includes(node.format)) {
      out.add(
        `${p}/format`,
        'format',
        `format ${q(node.format)} is not supported; supported: ${ANTHROPIC_FORMATS.join(', ')}`,
      );
    }
    for (const [child, cp] of children(node, p)) visit(child, cp);
    for (const kw of ['allOf', 'oneOf']) {
      const list = node[kw];
      if (Array.isArray(list)) for (const [i, v] of list.entries()) visit(v, `${p}/${kw}/${i}`);
    }
    for (const [child, cp] of definitions(node, p)) visit(child, cp);
  };
  visit(root, base);
  const cycle = findRecursiveRef(root, base);
  if (cycle) out.add(cycle, '$ref', 'recursive schemas are not supported with strict: true');
}

/** Pointer of a `$ref` that leads back to a schema containing it (a recursive schema), if any. */
export function findRecursiveRef(root: unknown, base: string): string | undefined {
  if (!isPlainObject(root)) return undefined;
  // Nodes a local $ref can name: the root and the (top-level) definitions.
  const targets = new Map<string, unknown>([['#', root]]);
  for (const [v, , name] of definitions(root, '')) {
    for (const kw of ['$defs', 'definitions']) {
      if (isPlainObject(root[kw]) && root[kw][name] === v) targets.set(`#/${kw}/${pointerSegment(name)}`, v);
    }
  }
  /** The $refs inside one target (not through other definitions), with their pointers. */
  const refsIn = (node: unknown, p: string, acc: [string, string][], top: boolean): [string, string][] => {
    if (!isPlainObject(node)) return acc;
    if (typeof node.$ref === 'string') acc.push([node.$ref, `${p}/$ref`]);
    for (const [k, v] of Object.entries(node)) {
      if (top && (k === '$defs' || k === 'definitions')) continue;
      if (['enum', 'const', 'default', 'examples', 'example'].includes(k)) continue;
      if (isPlainObject(v)) refsIn(v, `${p}/${pointerSegment(k)}`, acc, false);
      else if (Array.isArray(v)) {
        for (const [i, item] of v.entries()) refsIn(item, `${p}/${pointerSegment(k)}/${i}`, acc, false);
      }
    }
    return acc;
  };
  const pathOf = (ref: string) => (ref === '#' ? base : base + ref.slice(1));
  const edges = new Map<string, [string, string][]>();
  for (const [ref, node] of targets) edges.set(ref, refsIn(node, pathOf(ref), [], ref === '#'));
  // Depth-first search for a cycle, with an explicit stack (a chain of definitions can be long).
  const state = new Map<string, 1 | 2>();
  let found: string | undefined;
  for (const start of edges.keys()) {
    if (found || state.has(start)) continue;
    const stack: { ref: string; i: number }[] = [{ ref: start, i: 0 }];
    state.set(start, 1);
    while (stack.length > 0 && !found) {
      const top = stack[stack.length - 1]!;
      const out = edges.get(top.ref)!;
      if (top.i >= out.length) {
        state.set(top.ref, 2);
        stack.pop();
        continue;
      }
      const [to, at] = out[top.i++]!;
      const key = decodeRef(to);
      if (!edges.has(key)) continue;
      if (state.get(key) === 1) found = at;
      else if (!state.has(key)) {
        state.set(key, 1);
        stack.push({ ref: key, i: 0 });
      }
    }
  }
  return found;
}

function decodeRef(ref: string): string {
  try {
    return decodeURIComponent(ref);
  } catch {
    return ref;
  }
}
