import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const MAX_URL_CHARS = 8192;
/** Headers: at most this many, whether given as a JSON object, JSON text or lines. */
export const MAX_HEADERS = 100;
export const MAX_HEADERS_TEXT_CHARS = 65536;
export const MAX_BODY_CHARS = 262144;

/** The result of every method (MCP outputSchema). */
const OUTPUT = {
  type: 'object',
  properties: {
    request: {
      type: 'object',
      description: 'The request as built',
      properties: {
        method: { type: 'string', enum: [...METHODS], description: 'HTTP method' },
        url: {
          type: 'string',
          pattern: '^https?://',
          description: 'Normalised absolute URL, without fragment',
        },
        headers: {
          type: 'object',
          propertyNames: { pattern: "^[!#$%&'*+\\-.^_`|~0-9A-Za-z]+$" },
          additionalProperties: { type: 'string' },
          description: 'Header name → value, repeated names merged, Content-Type added for a body',
        },
        body: { type: ['string', 'null'], description: 'Body text as sent (compact JSON for JSON), or null' },
      },
      required: ['method', 'url', 'headers', 'body'],
      additionalProperties: false,
    },
    bodyType: {
      type: 'string',
      enum: ['none', 'json', 'text'],
      description: 'How the body is sent: none, json (application/json) or text',
    },
    snippets: {
      type: 'object',
      description: 'Equivalent code per client',
      properties: {
        curl: { type: 'string', description: 'cURL command line' },
        fetch: { type: 'string', description: 'JavaScript fetch' },
        axios: { type: 'string', description: 'JavaScript axios' },
        python: { type: 'string', description: 'Python requests' },
      },
      required: ['curl', 'fetch', 'axios', 'python'],
      additionalProperties: false,
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'What was changed or dropped, and why',
    },
  },
  required: ['request', 'bodyType', 'snippets', 'warnings'],
  additionalProperties: false,
};

export default defineTool({
  id: 'api-header-builder',
  title: 'API Request Builder',
  description:
    'Builds an HTTP request from a URL, headers and a body, and generates equivalent cURL, fetch, axios and Python (requests) code.',
  input: {
    type: 'object',
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_URL_CHARS,
        description: 'Absolute http or https URL of the request, query string included',
      },
      headers: {
        type: ['object', 'string'],
        maxLength: MAX_HEADERS_TEXT_CHARS,
        maxProperties: MAX_HEADERS,
        description:
          'Request headers: a JSON object, or `Name: value` lines; CR/LF inside a value is refused',
      },
      body: {
        type: ['string', 'object', 'array'],
        maxLength: MAX_BODY_CHARS,
        description: 'Request body; JSON text or a JSON value is sent with Content-Type application/json',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { limit: 30, burst: 10, inputMaxBytes: 262144, timeoutMs: 4000, riskClass: 'M' },
  modes: {
    field: 'method',
    description: 'HTTP method: GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS (default GET)',
    each: { GET: {}, POST: {}, PUT: {}, PATCH: {}, DELETE: {}, HEAD: {}, OPTIONS: {} },
  },
  slots: { a: 'url', b: 'headers', c: 'body' },
  deterministic: true,
  jsonText: ['headers'],
});
