/**
 * Summary → draft-07 schema. Alternatives that are all primitives become a type array
 * (`["string", "null"]`); as soon as an object or array is among them, `anyOf`.
 *
 * strict (OpenAI Structured Outputs): every object lists all its properties in
 * `required` and has `additionalProperties: false`; a property that was missing or
 * null somewhere becomes nullable instead of optional; `format: uri` (not supported
 * there) is dropped; an array never seen with an element gets a primitive union.
 */
import type { Summary } from './infer.js';

export type Schema = Record<string, unknown>;
type Kind = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface EmitOptions {
  strict: boolean;
  /** strict: JSONPath-like paths of properties made required-but-nullable (filled in by emit). */
  nullable: string[];
}

function childPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

const STRICT_FORMATS = new Set(['date-time', 'date', 'uuid', 'email', 'ipv4', 'ipv6']);

/** Sets a key as an own data property, so keys like `__proto__` stay plain keys. */
function put(target: Schema, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function kindsOf(summary: Summary): Kind[] {
  const kinds: Kind[] = [];
  if (summary.objects > 0) kinds.push('object');
  if (summary.arrays > 0) kinds.push('array');
  if (summary.strings > 0) kinds.push('string');
  // An integer is a number: integers alone give "integer", with fractions "number".
  if (summary.numbers > 0) kinds.push('number');
  else if (summary.integers > 0) kinds.push('integer');
  if (summary.booleans > 0) kinds.push('boolean');
  return kinds;
}

function objectSchema(summary: Summary, options: EmitOptions, path: string): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const [key, property] of summary.properties) {
    // Required: present with a non-null value in every object seen here.
    const always = property.nonNull === summary.objects;
    const optional = options.strict && !always;
    if (optional && property.present < summary.objects) options.nullable.push(childPath(path, key));
    put(properties, key, emit(property.summary, options, childPath(path, key), optional));
    if (always || options.strict) required.push(key);
  }
  const schema: Schema = { type: 'object', properties };
  if (required.length > 0 || options.strict) schema.required = required;
  if (options.strict) schema.additionalProperties = false;
  return schema;
}

function arraySchema(summary: Summary, options: EmitOptions, path: string): Schema {
  const items = summary.items;
  const seen = items !== null && (kindsOf(items).length > 0 || items.nulls > 0);
  if (seen) return { type: 'array', items: emit(items, options, `${path}[*]`) };
  // Only empty arrays were seen: any item goes (strict needs a typed schema).
  return { type: 'array', items: options.strict ? { type: ['string', 'number', 'boolean', 'null'] } : {} };
}

function stringFormat(summary: Summary, options: EmitOptions): string | null {
  const format = summary.format ?? null;
  if (format === null || (options.strict && !STRICT_FORMATS.has(format))) return null;
  return format;
}

function kindSchema(kind: Kind, summary: Summary, options: EmitOptions, path: string): Schema {
  if (kind === 'object') return objectSchema(summary, options, path);
  if (kind === 'array') return arraySchema(summary, options, path);
  const schema: Schema = { type: kind };
  const format = kind === 'string' ? stringFormat(summary, options) : null;
  if (format) schema.format = format;
  return schema;
}

/** Schema for one position; `forceNullable` makes it accept null too (strict optional properties). */
export function emit(summary: Summary, options: EmitOptions, path = '$', forceNullable = false): Schema {
  const kinds = kindsOf(summary);
  const nullable = summary.nulls > 0 || forceNullable;
  if (kinds.length === 0) return nullable ? { type: 'null' } : {};
  const structured = kinds.includes('object') || kinds.includes('array');
  if (!structured) {
    const types: string[] = nullable ? [...kinds, 'null'] : kinds;
    const schema: Schema = { type: types.length === 1 ? types[0] : types };
    const format = kinds.includes('string') ? stringFormat(summary, options) : null;
    if (format) schema.format = format;
    return schema;
  }
  const alternatives = kinds.map((kind) => kindSchema(kind, summary, options, path));
  if (nullable) alternatives.push({ type: 'null' });
  return alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives };
}
