import type { FastifySchema } from 'fastify';

/** One answer of a documented route: a JSON schema, a media type, or both kinds (MCP: JSON or SSE). */
export interface AnswerDoc {
  description: string;
  /** JSON answer: its schema (a named component schema is referenced by name in OpenAPI). */
  schema?: object;
  /**
   * The handler sends this body already serialised (the catalogue's bytes built at boot, a
   * ToolRunError from the error handler): fastify gets no serialiser for it, and the schema
   * only documents it (or the handler's object goes through plain JSON.stringify);
   * test/openapi-contract.test.ts checks real answers against it.
   */
  prebuilt?: true;
  /** Non-JSON answer: its media type (text/markdown, text/plain, application/yaml). */
  type?: string;
  /** Further media types of the same answer and their schemas (text/event-stream on /mcp). */
  otherTypes?: Record<string, object>;
  /** Response headers worth naming (Allow on a 405), written out or as `$ref`s to the document's headers. */
  headers?: Record<string, object>;
  /**
   * The answer is one of the document's shared responses (`Error400`…, one per status of the
   * error table): named, not restated, and its description is the shared one.
   */
  shared?: string;
}

/** A path parameter: its name (`{name}` in the URL) and what it is. */
export interface ParamDoc {
  name: string;
  description: string;
}

/** A query parameter: a path parameter's fields, whether it is required, and its schema. */
export interface QueryDoc extends ParamDoc {
  required: boolean;
  schema: object;
}

/**
 * A route other than a tool's dedicated endpoints (generic runtime, batch requests, catalogue, health, metrics,
 * MCP), declared once: fastify registers it at `routePath(url)` with its `schema` (the JSON
 * answers it serialises), and the OpenAPI document is built from the same declaration
 * (src/catalogue/openapi-routes.ts), so a route cannot be served without its description
 * (test/openapi-routes.test.ts checks both ways). The dedicated endpoints are declared by the
 * tools' own `endpoints`, which give both their routes and their operations.
 */
export interface RouteDoc {
  method: 'GET' | 'POST' | 'DELETE';
  /** The OpenAPI path, `{name}` for a parameter. */
  url: string;
  operationId: string;
  summary: string;
  description: string;
  tag: 'runtime' | 'jobs' | 'catalogue' | 'operations' | 'mcp';
  params?: ParamDoc[];
  query?: QueryDoc[];
  /** Request headers worth naming (If-None-Match on the run routes), as OpenAPI header parameters. */
  requestHeaders?: readonly object[];
  /** The request body, where the route takes one (JSON). */
  body?: { description: string; schema: object };
  answers: Record<number, AnswerDoc>;
}

/** The fastify path of a documented URL: `{name}` becomes `:name` (find-my-way ends a parameter at `.` too). */
export function routePath(url: string): string {
  return url.replace(/\{(\w+)\}/g, ':$1');
}

/** The fastify schema of a documented route: the JSON answers it serialises itself. */
export function routeSchema(doc: RouteDoc): FastifySchema {
  const response = Object.fromEntries(
    Object.entries(doc.answers)
      .filter(([, a]) => a.schema && !a.prebuilt)
      .map(([status, a]) => [status, a.schema]),
  );
  return { summary: doc.summary, tags: [doc.tag], ...(Object.keys(response).length ? { response } : {}) };
}
