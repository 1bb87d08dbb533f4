import type { FastifySchema } from 'fastify';

/** One answer of a documented route: a JSON schema (validated and serialised by fastify), or a media type. */
export interface AnswerDoc {
  description: string;
  /** JSON answer: its schema (a member of RESPONSE_SCHEMAS is referenced by name in OpenAPI). */
  schema?: object;
  /** Non-JSON answer: its media type (text/markdown, text/plain, application/yaml). */
  type?: string;
}

/**
 * A route other than the tools' (catalogue, health, metrics), declared once: fastify gets
 * its `schema` (the JSON answers are serialised by it), and the OpenAPI document is built
 * from the same declaration (src/catalogue/openapi.ts), so neither can drift from the other.
 */
export interface RouteDoc {
  method: 'GET' | 'POST';
  url: string;
  operationId: string;
  summary: string;
  tag: 'catalogue' | 'operations' | 'mcp';
  /** Path parameters, `{name}` in the OpenAPI path. */
  params?: string[];
  answers: Record<number, AnswerDoc>;
}

/** The fastify schema of a documented route: its JSON answers' schemas. */
export function routeSchema(doc: RouteDoc): FastifySchema {
  const response = Object.fromEntries(
    Object.entries(doc.answers)
      .filter(([, a]) => a.schema)
      .map(([status, a]) => [status, a.schema]),
  );
  return { summary: doc.summary, tags: [doc.tag], ...(Object.keys(response).length ? { response } : {}) };
}
