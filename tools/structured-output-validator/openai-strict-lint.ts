/**
 * OpenAI Structured Outputs strict mode (response_format json_schema and strict function
 * parameters). The walk recurses; the input is depth-checked (MAX_SCHEMA_DEPTH) before,
 * so the stack stays shallow.
 */
import { type IssueCollector, quoteName } from './issue-list.js';
import { isPlainObject, pointerSegment } from './json-input.js';
import { JSON_TYPES, OPENAI_FORMATS, OPENAI_LIMITS, OPENAI_UNSUPPORTED } from './provider-rules.js';
import { refDepths, refKey } from './ref-depth.js';
import { children, definitions, isObjectSchema, type Schema, typesOf } from './strict-shape.js';

/**
 * `properties` and `required` of an object schema: OpenAI wants `required` to list exactly the
 * properties ("'required' is required to be supplied and to be an array including every key in
 * properties", then "Missing 'x'" or "Extra required key 'x' supplied") and reads an object
 * without `properties` as having none, so a name required there is extra too. strict-fix.ts
 * makes each change reported here (SKILL.md, "Mode fix").
 */
function lintRequired(node: Schema, p: string, out: IssueCollector): void {
  const properties = isPlainObject(node.properties) ? node.properties : null;
  if (properties === null) {
    out.add(
      p,
      'properties',
      'every object needs properties in strict mode (properties: {} when it has none)',
    );
  }
  const required = Array.isArray(node.required) ? node.required : null;
  const listed = new Set(required ?? []);
  for (const key of Object.keys(properties ?? {})) {
    if (!listed.has(key)) {
      out.add(
        `${p}/properties/${pointerSegment(key)}`,
        'required',
        `property ${quoteName(key)} must be listed in required (strict mode has no optional properties: make it nullable instead)`,
        { missingProperty: key.slice(0, 200) },
      );
    }
  }
  if (properties !== null && required === null && Object.keys(properties).length === 0) {
    out.add(
      p,
      'required',
      'strict mode needs required on every object: required: [] when there are no properties',
    );
  }
  for (const [i, name] of (required ?? []).entries()) {
    if (typeof name !== 'string' || properties === null || !Object.hasOwn(properties, name)) {
      out.add(
        `${p}/required/${i}`,
        'required',
        `required names ${quoteName(String(name))}, which properties does not declare: strict mode refuses it ("Extra required key"); declare the property or remove the name`,
      );
    }
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

  // Levels of objects below each schema a $ref names, through further $refs (ref-depth.ts).
  const below = refDepths(root);
  /** `fromRoot`: the walk of the schema itself, where a $ref's level is its level in the document. */
  const visit = (node: unknown, p: string, depth: number, fromRoot: boolean): void => {
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
        out.add(`${p}/type`, 'type', `type ${quoteName(t)} is not supported`);
    }
    const typed = types.length > 0 || ['anyOf', '$ref', 'enum', 'const'].some((k) => k in node);
    if (!typed)
      out.add(p, 'type', 'every schema needs a type (or anyOf, $ref, enum or const) in strict mode');
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) {
      out.add(`${p}/$ref`, '$ref', 'only local $refs (#/$defs/...) are supported');
    }
    const more = fromRoot && typeof node.$ref === 'string' ? below.get(refKey(node.$ref) ?? '') : undefined;
    if (more !== undefined && depth <= OPENAI_LIMITS.nesting && depth + more > OPENAI_LIMITS.nesting) {
      out.add(
        `${p}/$ref`,
        'limit',
        `objects are nested ${depth + more} levels deep through this $ref (${depth} above it, ${more} in ${quoteName(node.$ref as string)}); at most ${OPENAI_LIMITS.nesting}`,
        { limit: OPENAI_LIMITS.nesting },
      );
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
      if (isPlainObject(node.properties)) {
        for (const key of Object.keys(node.properties)) {
          totals.properties++;
          totals.chars += key.length;
        }
      }
      lintRequired(node, p, out);
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
        `format ${quoteName(node.format)} is not supported; supported: ${OPENAI_FORMATS.join(', ')}`,
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
    for (const [child, cp, deeper] of children(node, p)) visit(child, cp, deeper ? level : depth, fromRoot);
    for (const [child, cp, name] of definitions(node, p)) {
      totals.chars += name.length;
      visit(child, cp, 0, false);
    }
  };
  visit(root, base, 0, true);

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
