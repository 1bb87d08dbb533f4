import { ToolInputError } from '#tool-kit';
import { applyBounds } from './bounds.js';
import { addHint, singular } from './faker-hints.js';
import { checkPattern } from './pattern-budget.js';

export const MAX_SCHEMA_NODES = 1000;
export const MAX_SCHEMA_DEPTH = 32;
const PROTO_REFUSED = 'a schema property named __proto__ is not supported: no generated object can hold it';
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

type Schema = Record<string, unknown> | boolean;
type Sub = (schema: unknown, at: string, name?: string) => Schema;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Copies a user schema keeping only the keywords json-schema-faker needs to shape data,
 * with bounds checked. Dropped on purpose: `faker`/`chance`/`template`/`jsonPath`/
 * `autoIncrement` (they would call arbitrary faker methods or keep counters),
 * `patternProperties`/`propertyNames` (user regexes tested against names), `$id` (a base
 * URI for remote refs), defaults, examples and annotations. Only local `$ref`s pass.
 */
export function sanitizeSchema(root: Record<string, unknown>): Record<string, unknown> {
  const state = { nodes: 0 };
  const walk = (schema: unknown, at: string, depth: number, name: string | undefined): Schema => {
    if (typeof schema === 'boolean') return schema;
    if (!isObject(schema)) throw new ToolInputError(`schema at ${at} must be an object or a boolean`);
    if (++state.nodes > MAX_SCHEMA_NODES) {
      throw new ToolInputError(`schema has more than ${MAX_SCHEMA_NODES} subschemas`);
    }
    if (depth > MAX_SCHEMA_DEPTH)
      throw new ToolInputError(`schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const out = copyNode(schema, at, name, (s, p, n) => walk(s, p, depth + 1, n));
    addHint(out, name);
    return out;
  };
  return walk(root, '#', 0, undefined) as Record<string, unknown>;
}

function copyNode(node: Record<string, unknown>, at: string, name: string | undefined, sub: Sub) {
  const out: Record<string, unknown> = {};
  const list = (v: unknown, p: string, n?: string): Schema[] => {
    if (!Array.isArray(v) || v.length === 0)
      throw new ToolInputError(`${p} must be a non-empty array of schemas`);
    return v.map((s, i) => sub(s, `${p}/${i}`, n));
  };
  const map = (v: unknown, p: string, named: boolean): Record<string, Schema> => {
    if (!isObject(v)) throw new ToolInputError(`${p} must be an object of schemas`);
    return Object.fromEntries(
      Object.entries(v).map(([k, s]) => {
        // json-schema-faker assigns generated properties: `__proto__` would set the prototype.
        if (named && k === '__proto__') throw new ToolInputError(PROTO_REFUSED);
        return [k, sub(s, `${p}/${k}`, named ? k : undefined)];
      }),
    );
  };
  for (const [k, v] of Object.entries(node)) {
    const p = `${at}/${k}`;
    switch (k) {
      case 'type':
        out.type = checkType(v, p);
        break;
      case 'enum':
        if (!Array.isArray(v) || v.length === 0) throw new ToolInputError(`${p} must be a non-empty array`);
        out.enum = v;
        break;
      case 'const':
        out.const = v;
        break;
      case 'format':
        if (typeof v === 'string') out.format = v;
        break;
      case 'pattern':
        if (typeof v !== 'string') throw new ToolInputError(`${p} must be a string`);
        checkPattern(v);
        out.pattern = v;
        break;
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'multipleOf':
        // draft-04 boolean exclusiveMinimum/Maximum are dropped; numbers must be finite.
        if (typeof v === 'number' && Number.isFinite(v) && (k !== 'multipleOf' || v > 0)) out[k] = v;
        else if (typeof v !== 'boolean') throw new ToolInputError(`${p} must be a finite number`);
        break;
      case 'minLength':
      case 'maxLength':
      case 'minItems':
      case 'maxItems':
      case 'minProperties':
      case 'maxProperties':
        if (!Number.isInteger(v) || (v as number) < 0)
          throw new ToolInputError(`${p} must be a non-negative integer`);
        out[k] = v;
        break;
      case 'uniqueItems':
        out.uniqueItems = v === true;
        break;
      case 'required':
        if (!Array.isArray(v) || !v.every((r) => typeof r === 'string')) {
          throw new ToolInputError(`${p} must be an array of property names`);
        }
        if (v.includes('__proto__')) throw new ToolInputError(PROTO_REFUSED);
        out.required = v;
        break;
      case 'properties':
        out.properties = map(v, p, true);
        break;
      case '$defs':
      case 'definitions':
        // One home for both, so `#/definitions/x` refs keep working (see checkRef).
        out.$defs = { ...(out.$defs as object | undefined), ...map(v, p, false) };
        break;
      case 'dependentSchemas':
        out.dependentSchemas = map(v, p, false);
        break;
      case 'items':
        // draft-07 tuple form: the array becomes prefixItems, additionalItems the rest.
        if (Array.isArray(v)) out.prefixItems = list(v, p, singular(name));
        else out.items = sub(v, p, singular(name));
        break;
      case 'prefixItems':
        out.prefixItems = list(v, p, singular(name));
        break;
      case 'additionalItems':
        if (Array.isArray(node.items)) out.items = sub(v, p, singular(name));
        break;
      case 'contains':
      case 'additionalProperties':
      case 'not':
      case 'if':
        out[k] = sub(v, p);
        break;
      case 'then':
      case 'else':
        out[k] = sub(v, p, name);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[k] = list(v, p, name);
        break;
      case '$ref':
        out.$ref = checkRef(v, p);
        break;
    }
  }
  applyBounds(out, at);
  return out;
}

function checkType(v: unknown, at: string): string | string[] {
  const types = Array.isArray(v) ? v : [v];
  if (types.length === 0 || !types.every((t) => typeof t === 'string' && TYPES.has(t))) {
    throw new ToolInputError(`${at} must be one of ${[...TYPES].join(', ')} (or an array of them)`);
  }
  return v as string | string[];
}

/** Only references inside the document: nothing is fetched or read. */
function checkRef(v: unknown, at: string): string {
  if (typeof v !== 'string' || !v.startsWith('#')) {
    throw new ToolInputError(
      `${at}: only local references (starting with #) are supported, got ${JSON.stringify(v)}`,
    );
  }
  return v.replace(/\/definitions\//g, '/$defs/');
}
