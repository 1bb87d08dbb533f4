/**
 * Spells out what JSON Schema leaves implicit, for client generators (docs/api.md, "Client
 * generation"), without changing what any schema accepts (the tools keep their own schemas
 * for ajv; this works on a copy of the document's):
 *
 * - a schema that may be an object but names neither `properties` nor `additionalProperties`
 *   gets `additionalProperties: true`, and one that may be an array without `items` gets
 *   `items: true` (both the defaults). Without them openapi-typescript reads the object as
 *   `Record<string, never>`, and sending `{...}` for a JSON-value field (runtime `a`, `body`,
 *   `sample`, `schema`…) is a type error;
 * - an `anyOf`/`oneOf` beside `properties` whose members only constrain (which fields are
 *   `required`, say) moves into `allOf: [{anyOf}]`: openapi-typescript reads such members
 *   as `unknown` and `props | unknown` is `unknown` (every color-palette field unreadable),
 *   while `props & (unknown | unknown)` is `props`.
 */
export function forGenerators<T>(schema: T): T {
  return visit(structuredClone(schema)) as T;
}

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'example', 'examples', 'required']);
const NAMED_SCHEMAS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);
const SHAPE_KEYS = ['type', 'properties', '$ref', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'allOf'];

function visit(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) visit(item);
    return node;
  }
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Record<string, unknown>;
  const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (Array.isArray(types)) {
    const bare = (...keys: string[]) => keys.every((k) => !(k in schema));
    if (types.includes('object') && bare('properties', 'additionalProperties', 'patternProperties'))
      schema.additionalProperties = true;
    if (types.includes('array') && bare('items', 'prefixItems')) schema.items = true;
  }
  if (schema.properties) {
    for (const key of ['anyOf', 'oneOf'] as const) {
      const members = schema[key];
      const constraintsOnly =
        Array.isArray(members) &&
        members.every((m) => typeof m === 'object' && m !== null && SHAPE_KEYS.every((k) => !(k in m)));
      if (!constraintsOnly) continue;
      delete schema[key];
      schema.allOf = [...((schema.allOf as unknown[] | undefined) ?? []), { [key]: members }];
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    // A map of names to schemas: a property may be called `required` or `enum`.
    if (NAMED_SCHEMAS.has(key) && value && typeof value === 'object') Object.values(value).forEach(visit);
    else if (!DATA_KEYS.has(key)) visit(value);
  }
  return schema;
}
