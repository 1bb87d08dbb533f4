import { ref } from './openapi-responses.js';
import type { AnswerDoc, RouteDoc } from './route-doc.js';

/**
 * The routes that are not a tool's, from their one declaration (src/catalogue/route-docs.ts):
 * the same objects give fastify its path and schemas. `named` maps a component schema
 * (by identity) to its name, so a declared schema is referenced, not copied.
 */
export function routePaths(docs: RouteDoc[], named: Map<object, string>): Record<string, unknown> {
  const schemaOf = (schema: object): object => {
    if (named.has(schema)) return ref(named.get(schema)!);
    // A union of named schemas (readyz's 503: Readiness or the shutdown's ToolRunError).
    const { anyOf } = schema as { anyOf?: object[] };
    return anyOf ? { ...schema, anyOf: anyOf.map(schemaOf) } : schema;
  };
  const content = (a: AnswerDoc) => {
    const out: Record<string, unknown> = {};
    if (a.schema) out['application/json'] = { schema: schemaOf(a.schema) };
    else if (a.type)
      out[a.type] = { schema: a.type === 'application/json' ? { type: 'object' } : { type: 'string' } };
    for (const [type, schema] of Object.entries(a.otherTypes ?? {})) out[type] = { schema };
    return Object.keys(out).length ? out : undefined;
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs) {
    paths[doc.url] ??= {};
    paths[doc.url]![doc.method.toLowerCase()] = {
      tags: [doc.tag],
      operationId: doc.operationId,
      summary: doc.summary,
      description: doc.description,
      ...(doc.params || doc.query || doc.requestHeaders
        ? {
            parameters: [
              ...(doc.params ?? []).map((p) => ({
                name: p.name,
                in: 'path',
                required: true,
                description: p.description,
                schema: { type: 'string' },
              })),
              ...(doc.query ?? []).map((q) => ({ ...q, in: 'query' })),
              ...(doc.requestHeaders ?? []),
            ],
          }
        : {}),
      ...(doc.body
        ? {
            requestBody: {
              required: true,
              description: doc.body.description,
              content: { 'application/json': { schema: schemaOf(doc.body.schema) } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(doc.answers as Record<number, AnswerDoc>).map(([status, a]) => {
          if (a.shared) return [status, { $ref: `#/components/responses/${a.shared}` }];
          const body = content(a);
          return [
            status,
            {
              description: a.description,
              ...(a.headers ? { headers: a.headers } : {}),
              ...(body ? { content: body } : {}),
            },
          ];
        }),
      ),
    };
  }
  return paths;
}
