/** Keywords of JSON Schema (draft-04 to 2020-12) that may appear at the top of a schema. */
const KEYWORDS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  '$anchor',
  '$comment',
  'title',
  'description',
  'type',
  'enum',
  'const',
  'default',
  'examples',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'minItems',
  'maxItems',
  'uniqueItems',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'nullable',
  'readOnly',
  'writeOnly',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeywords = (v: Record<string, unknown>): boolean =>
  Object.keys(v).every((k) => KEYWORDS.has(k) || k.startsWith('x-'));
/** A subschema made of schema keywords only (`{"id": 1}`, `{}` and `true` may be data). */
const looksLikeSchema = (v: unknown): boolean => isObject(v) && Object.keys(v).length > 0 && onlyKeywords(v);
const allSchemas = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every(looksLikeSchema);

/**
 * Decides whether the response value is a JSON Schema (data is generated) or an example
 * (returned as is). A schema has `$schema`, or only schema keywords and at least one
 * shaping keyword whose value has the right shape: `{"type": "user", "name": "x"}` and
 * `{"items": [{"id": 1}]}` stay examples.
 */
export function isJsonSchema(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  if (typeof value.$schema === 'string') return true;
  if (!onlyKeywords(value)) return false;
  const { type } = value;
  if (typeof type === 'string' && TYPES.has(type)) return true;
  if (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t)))
    return true;
  const props = isObject(value.properties) ? Object.values(value.properties) : [];
  if (props.length > 0 && props.every(looksLikeSchema)) return true;
  if (looksLikeSchema(value.items) || allSchemas(value.items)) return true;
  if (typeof value.$ref === 'string' || Array.isArray(value.enum)) return true;
  return ['allOf', 'anyOf', 'oneOf'].some((k) => allSchemas(value[k]));
}
