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
  name: 'API Request Builder',
  description:
    'Builds an HTTP request from a URL, headers and a body, and generates equivalent cURL, fetch, axios and Python (requests) code.',
  category: 'devtools',
  icon: 'send',
  keywords: ['http', 'headers', 'curl', 'fetch', 'axios', 'python', 'requests', 'snippet', 'code generator'],
  tags: ['http', 'api', 'code-generation'],
  riskClass: 'M',
  hasApi: true,
  policy: { limit: 30, burst: 10, windowSec: 60, inputMaxBytes: 262144, timeoutMs: 4000 },
  modes: [...METHODS],
  modeField: 'method',
  fields: { a: 'url', b: 'headers', c: 'body' },
  input: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, maxLength: MAX_URL_CHARS, description: 'Absolute http(s) URL' },
      headers: {
        type: ['object', 'string'],
        maxLength: MAX_HEADERS_TEXT_CHARS,
        maxProperties: MAX_HEADERS,
        description: `Headers as a JSON object, JSON text, or \`Name: value\` lines (at most ${MAX_HEADERS})`,
      },
      body: {
        type: ['string', 'object', 'array'],
        maxLength: MAX_BODY_CHARS,
        description:
          'Request body; a JSON value, or text that parses as a JSON object or array, is sent as JSON',
      },
    },
    required: ['url'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    url: 'Absolute http or https URL of the request, query string included',
    headers: 'Request headers: a JSON object, or `Name: value` lines; CR/LF inside a value is refused',
    body: 'Request body; JSON text or a JSON value is sent with Content-Type application/json',
    method: 'HTTP method: GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS (default GET)',
  },
  endpoints: [
    {
      path: '/api/api-header-builder/',
      methods: ['GET', 'POST'],
      summary: 'Build an HTTP request and generate cURL, fetch, axios and Python code',
    },
  ],
  faqs: [
    {
      question: 'Does the hub send the request?',
      answer: 'No. The tool only builds the request and code; the runtime has no network access.',
    },
    {
      question: 'How are headers given?',
      answer: `As a JSON object, or as \`Name: value\` lines, one per line (at most ${MAX_HEADERS}). Names must be RFC 7230 tokens; a value with CR, LF or another control character is refused (no header injection). Repeated names are combined with commas. Without a Content-Type, a JSON body gets application/json and a text body text/plain; charset=utf-8.`,
    },
    {
      question: 'Can a GET or HEAD request have a body?',
      answer:
        'No: such a request is refused with INVALID_INPUT, because fetch rejects it and servers ignore it. Use POST, PUT or PATCH to send a body.',
    },
  ],
  howTo: [
    { title: 'Give the URL', description: 'Pass the absolute URL as `url` (generic: `a`).' },
    {
      title: 'Add headers and body',
      description: 'Pass headers as `headers` (`b`) and the body as `body` (`c`).',
    },
    { title: 'Pick the method', description: 'Set `method` (`mode`), e.g. POST; the default is GET.' },
  ],
  relatedTools: ['api-response-mocker', 'structured-output-validator'],
  deterministic: true,
  jsonText: ['headers'],
});
