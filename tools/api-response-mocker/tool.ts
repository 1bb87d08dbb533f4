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
  name: 'API Response Mocker',
  description:
    'Turns a JSON example or a JSON Schema into a mock API response, with ready-to-use code for fetch, MSW, Express, cURL and Python. Data generated from a schema is realistic and the same for the same input.',
  category: 'devtools',
  icon: 'server',
  keywords: [
    'mock',
    'api',
    'json schema',
    'fake data',
    'msw',
    'express',
    'fetch',
    'curl',
    'python',
    'responses',
    'faker',
  ],
  tags: ['http', 'api', 'mocking', 'code-generation'],
  riskClass: 'L',
  hasApi: true,
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 131072, timeoutMs: 2000 },
  modes: [...MODES],
  modeField: 'target',
  fields: { a: 'response', b: 'route', c: 'status' },
  input: {
    type: 'object',
    properties: {
      response: {
        type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
        maxLength: MAX_RESPONSE_CHARS,
        description:
          'Response body: a JSON example (returned as is) or a JSON Schema (data is generated). As text it must be JSON.',
      },
      route: {
        type: 'string',
        maxLength: MAX_ROUTE_CHARS,
        default: DEFAULT_ROUTE,
        description: 'Route as `METHOD /path`, e.g. `GET /api/users/:id` (default `GET /api/mock`)',
      },
      status: {
        type: 'integer',
        minimum: MIN_STATUS,
        maximum: MAX_STATUS,
        default: DEFAULT_STATUS,
        description:
          'HTTP status of the mock response, 200..599 (1xx is refused: it is never a final response)',
      },
    },
    required: ['response'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    response:
      'The response body: a JSON example, returned unchanged, or a JSON Schema (detected by `$schema`, or schema keywords such as `type`/`properties`) from which realistic data is generated',
    route:
      'The mocked route as `METHOD /path`; `:name` segments are path parameters (default `GET /api/mock`)',
    status: 'HTTP status code of the mock response (default 200); 204, 205 and 304 have no body',
    target: 'Which snippet to generate: all (default), fetch, msw, express, curl or python',
  },
  endpoints: [
    {
      path: '/api/api-response-mocker/',
      methods: ['GET', 'POST'],
      summary: 'Generate a mock API response and its fetch, MSW, Express, cURL and Python code',
    },
  ],
  faqs: [
    {
      question: 'Example or schema: which one is used how?',
      answer:
        'An object with `$schema`, or made only of JSON Schema keywords with a JSON type in `type`, subschemas in `properties`, `items` or `allOf`/`anyOf`/`oneOf`, a `$ref` or an `enum`, is a schema: realistic data is generated from it (json-schema-faker with faker). Anything else, such as `{"items": [{"id": 1}]}`, is an example and is returned exactly as given; no data is synthesised from it.',
    },
    {
      question: 'Is the generated data the same every time?',
      answer:
        'Yes. The generators are seeded from a hash of the schema and the route, so the same input always gives the same response, whichever target you pick. Change the route or the schema to get other data.',
    },
    {
      question: 'Does the generated body always fit the schema?',
      answer:
        'Every body is validated against your schema with ajv (draft-07, or 2020-12 when `$schema` says so). A schema no value can fit, such as `minItems: 10` with `uniqueItems` over a one-value `enum` or an `allOf` of a string and a number, is refused with the keyword and its path. Otherwise a body that does not fit is generated again with other seeds and cheaply repaired; if it still does not fit, `notes` quotes the first validation errors (path, keyword, schema path) and the closest body is returned.',
    },
    {
      question: 'Which schemas are refused or bounded?',
      answer:
        'Only local `$ref`s (`#/...`) are followed; nothing is fetched. Custom `faker`/`chance` keywords, `patternProperties` and `propertyNames` are ignored. Large bounds are lowered (at most 10 array items, 256 characters, 20 properties beyond the minimums) and a response is limited to 5000 values; 1xx statuses are refused.',
    },
  ],
  howTo: [
    {
      title: 'Give the body',
      description: 'Pass a JSON example or a JSON Schema as `response` (generic: `a`).',
    },
    {
      title: 'Set the route',
      description: 'Pass `route` (`b`) as `METHOD /path`, e.g. `GET /api/users/:id`.',
    },
    { title: 'Set the status', description: 'Pass `status` (`c`), e.g. 201; the default is 200.' },
    {
      title: 'Pick a target',
      description: 'Set `target` (`mode`) to fetch, msw, express, curl or python; all is the default.',
    },
  ],
  relatedTools: ['api-header-builder', 'schema-generator', 'structured-output-validator'],
  deterministic: true,
  jsonText: ['response'],
});
