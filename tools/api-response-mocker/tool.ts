import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const TARGETS = ['fetch', 'msw', 'express', 'curl', 'python'] as const;
export type Target = (typeof TARGETS)[number];
export const MODES = ['all', ...TARGETS] as const;
export const MAX_RESPONSE_CHARS = 131072;
export const MAX_ROUTE_CHARS = 600;
export const DEFAULT_ROUTE = 'GET /api/mock';
export const MIN_STATUS = 100;
export const MAX_STATUS = 599;
export const DEFAULT_STATUS = 200;

/** Route methods a result names (route.ts ROUTE_METHODS; test/output-schemas.test.ts checks they agree). */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

/** The result of every target (MCP outputSchema): `snippets` holds the one asked for, or all. */
const OUTPUT = {
  type: 'object',
  properties: {
    response: {
      type: 'object',
      description: 'The mock response',
      properties: {
        status: { type: 'integer', minimum: 200, maximum: MAX_STATUS, description: 'HTTP status' },
        headers: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Response headers (Content-Type: application/json unless 204, 205 or 304)',
        },
        body: { description: 'The body: any JSON value; null when the status or method has none' },
      },
      required: ['status', 'headers', 'body'],
      additionalProperties: false,
    },
    route: {
      type: 'object',
      description: 'The mocked route',
      properties: {
        method: { type: 'string', enum: ROUTE_METHODS, description: 'HTTP method' },
        path: { type: 'string', pattern: '^/', description: 'Path; :name segments are parameters' },
      },
      required: ['method', 'path'],
      additionalProperties: false,
    },
    source: {
      type: 'string',
      enum: ['schema', 'example'],
      description: 'schema: data generated from a JSON Schema; example: the response returned as given',
    },
    seed: {
      type: 'integer',
      minimum: 0,
      maximum: 4294967295,
      description: 'schema only: generator seed, derived from the route and the schema',
    },
    snippets: {
      type: 'object',
      description: 'Code per target: the target asked for, or all five',
      properties: Object.fromEntries(TARGETS.map((t) => [t, { type: 'string' }])),
      minProperties: 1,
      additionalProperties: false,
    },
    notes: {
      type: 'array',
      items: { type: 'string' },
      description: 'What the caller should know about the data',
    },
  },
  required: ['response', 'route', 'source', 'snippets', 'notes'],
  additionalProperties: false,
};

export default defineTool({
  id: 'api-response-mocker',
  title: 'API Response Mocker',
  description:
    'Turns a JSON example or a JSON Schema into a mock API response, with ready-to-use code for fetch, MSW, Express, cURL and Python. Data generated from a schema is realistic and the same for the same input.',
  input: {
    type: 'object',
    properties: {
      response: {
        type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
        maxLength: MAX_RESPONSE_CHARS,
        description:
          'The response body: a JSON example, returned unchanged, or a JSON Schema (detected by `$schema`, or schema keywords such as `type`/`properties`) from which realistic data is generated',
      },
      route: {
        type: 'string',
        maxLength: MAX_ROUTE_CHARS,
        default: DEFAULT_ROUTE,
        description:
          'The mocked route as `METHOD /path`; `:name` segments are path parameters (default `GET /api/mock`)',
      },
      status: {
        type: 'integer',
        minimum: MIN_STATUS,
        maximum: MAX_STATUS,
        default: DEFAULT_STATUS,
        description: 'HTTP status code of the mock response (default 200); 204, 205 and 304 have no body',
      },
    },
    required: ['response'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 131072 },
  modes: {
    field: 'target',
    description: 'Which snippet to generate: all (default), fetch, msw, express, curl or python',
    each: { all: {}, fetch: {}, msw: {}, express: {}, curl: {}, python: {} },
  },
  slots: { a: 'response', b: 'route', c: 'status' },
  deterministic: true,
  jsonText: ['response'],
});
