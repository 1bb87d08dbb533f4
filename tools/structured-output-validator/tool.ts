import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['validate', 'lenient', 'schema', 'fix'] as const;
/** Provider dialects of mode schema (and fix: openai-strict); kept in step with provider-rules.ts PROVIDERS. */
export const PROVIDER_OPTIONS = ['openai-strict', 'gemini', 'anthropic', 'mcp'] as const;
/**
 * Generous hard cap per text field (and per string inside a JSON value); the policy's
 * inputMaxBytes (256 KiB by default) is the real gate.
 */
export const MAX_FIELD_CHARS = 1_048_576;

const ISSUE = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      description: 'JSON Pointer of the problem (in the target; in schema mode, the schema)',
    },
    keyword: { type: 'string', description: 'The failing keyword, e.g. required, type, json' },
    message: { type: 'string', description: 'What is wrong' },
    params: { type: 'object', description: "The keyword's details (ajv params)" },
    schemaPath: { type: 'string', description: 'Where in the schema the keyword is' },
    provider: { type: 'string', description: 'With the provider option: the provider whose rules apply' },
  },
  required: ['path', 'keyword', 'message'],
  additionalProperties: false,
};

/** The result of every mode (MCP outputSchema): the verdict, plus the extraction in lenient mode. */
const OUTPUT = {
  type: 'object',
  properties: {
    valid: {
      type: 'boolean',
      description: 'validate, lenient: the target fits; schema: the schema is valid',
    },
    errors: { type: 'array', maxItems: 100, items: ISSUE, description: 'The problems (at most 100)' },
    errorCount: { type: 'integer', minimum: 0, description: 'All problems found' },
    truncated: { type: 'boolean', description: 'true when errors lists fewer than errorCount' },
    kind: {
      type: 'string',
      enum: [
        'json-schema',
        'openai-function',
        'function-declaration',
        'anthropic-tool',
        'mcp-tool',
        'openai-response-format',
      ],
      description:
        'The shape recognised: a bare JSON Schema, or an LLM tool / response format wrapping one (function-declaration: {name, parameters}, the Gemini and legacy OpenAI shape)',
    },
    provider: {
      type: 'string',
      enum: [...PROVIDER_OPTIONS],
      description: "schema, fix: the provider whose rules were applied (fix: always 'openai-strict')",
    },
    fixed: {
      type: 'object',
      description:
        'fix: the document with its schema rewritten for OpenAI strict mode (same shape as given; strict: true set on OpenAI shapes)',
    },
    changes: {
      type: 'array',
      maxItems: 100,
      description: 'fix: what was changed (at most 100), with pointers into the given document',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'JSON Pointer of the change in the given document' },
          action: { type: 'string', enum: ['added', 'removed', 'changed'] },
          keyword: { type: 'string', description: 'The keyword added, removed or changed' },
          message: { type: 'string', description: 'What was done and why' },
        },
        required: ['path', 'action', 'keyword', 'message'],
        additionalProperties: false,
      },
    },
    changeCount: { type: 'integer', minimum: 0, description: 'fix: all changes made' },
    name: { type: 'string', description: 'schema mode: the tool name of a tool definition' },
    extractedFrom: {
      enum: ['raw', 'code-fence', 'embedded', null],
      description: 'lenient: where the JSON was found; null when none was',
    },
    extracted: { type: ['string', 'null'], description: 'lenient: the JSON text validated, or null' },
    extractedRange: {
      type: 'object',
      description: 'lenient: where the JSON text lies in target (UTF-16 offsets)',
      properties: { start: { type: 'integer', minimum: 0 }, end: { type: 'integer', minimum: 0 } },
      required: ['start', 'end'],
      additionalProperties: false,
    },
    candidates: { type: 'integer', minimum: 0, description: 'lenient: JSON candidates found in the text' },
  },
  required: ['valid', 'errors', 'errorCount', 'truncated', 'kind'],
  additionalProperties: false,
};

export default defineTool({
  id: 'structured-output-validator',
  title: 'Structured Output Validator',
  description:
    "Validates JSON (or LLM output with JSON inside prose or code fences) against a JSON Schema draft-07, checks JSON Schemas and LLM tool/function schemas (OpenAI, Anthropic, Gemini, MCP) against each provider's rules, and rewrites a schema for OpenAI strict mode.",
  input: {
    type: 'object',
    properties: {
      schema: {
        type: ['string', 'object', 'boolean'],
        maxLength: MAX_FIELD_CHARS,
        description:
          'The JSON Schema (draft-07) as JSON text or a JSON value. An OpenAI function ({type:"function",function:{name,parameters}} or {name,parameters}), an Anthropic tool ({name,input_schema}) or an MCP tool ({name,inputSchema}) is accepted too: its parameters schema is used.',
      },
      target: {
        type: ['string', 'object', 'array', 'number', 'boolean', 'null'],
        maxLength: MAX_FIELD_CHARS,
        description:
          'The JSON instance to validate, as JSON text or a JSON value (a string value is read as JSON text). In lenient mode: raw LLM output; the JSON is pulled out of code fences or surrounding prose. Required in validate and lenient modes, ignored in schema mode.',
      },
      provider: {
        type: 'string',
        enum: [...PROVIDER_OPTIONS],
        description:
          'Optional, modes schema and fix. openai-strict: OpenAI Structured Outputs strict mode (root object, every property required, additionalProperties: false, supported keywords and formats, size limits); gemini: Gemini function declarations (OpenAPI 3.0 Schema subset); anthropic: Anthropic tools (name, object input_schema; with strict: true the structured-outputs subset); mcp: MCP tools (object inputSchema/outputSchema, checked against the JSON Schema 2020-12 meta-schema).',
      },
    },
    required: ['schema'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { limit: 30, burst: 10, inputMaxBytes: 262144, timeoutMs: 4000, riskClass: 'M' },
  modes: {
    description:
      "validate (default): validate target against schema; lenient: extract the JSON from LLM text first, then validate; schema: check the schema itself (draft-07 meta-schema, regex patterns, $refs, tool name), and with `provider` the provider's own rules; fix: rewrite the schema for OpenAI strict mode (every property required, optional ones nullable, additionalProperties: false, unsupported keywords removed) and list the changes.",
    each: { validate: {}, lenient: {}, schema: { options: ['provider'] }, fix: { options: ['provider'] } },
  },
  slots: { a: 'schema', b: 'target' },
  endpoints: [
    {
      path: '/api/schema-validator/',
      methods: ['POST'],
      summary: 'Validate JSON or LLM output against a JSON Schema draft-07, or check a schema / tool schema',
    },
  ],
  deterministic: true,
  jsonText: ['schema', 'target'],
});
