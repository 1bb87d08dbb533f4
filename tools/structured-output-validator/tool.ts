import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['validate', 'lenient', 'schema'] as const;
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
      enum: ['json-schema', 'openai-function', 'function-declaration', 'anthropic-tool', 'mcp-tool'],
      description: 'What the schema document is: a JSON Schema or an LLM tool definition wrapping one',
    },
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
  name: 'Structured Output Validator',
  description:
    'Validates JSON (or LLM output with JSON inside prose or code fences) against a JSON Schema draft-07, and checks JSON Schemas and LLM tool/function schemas (OpenAI, Anthropic, MCP) themselves.',
  category: 'ai',
  icon: 'shield-check',
  keywords: [
    'json schema',
    'draft-07',
    'validator',
    'structured output',
    'llm',
    'function calling',
    'tool schema',
    'openai',
    'anthropic',
    'ajv',
  ],
  tags: ['json', 'json-schema', 'validation', 'llm', 'ai'],
  riskClass: 'M',
  hasApi: true,
  policy: { limit: 30, burst: 10, windowSec: 60, inputMaxBytes: 262144, timeoutMs: 4000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'schema', b: 'target', c: null },
  input: {
    type: 'object',
    properties: {
      schema: {
        type: ['string', 'object', 'boolean'],
        maxLength: MAX_FIELD_CHARS,
        description:
          'JSON Schema draft-07 (JSON text or a JSON value), or an LLM tool schema (OpenAI function, Anthropic tool, MCP tool)',
      },
      target: {
        type: ['string', 'object', 'array', 'number', 'boolean', 'null'],
        maxLength: MAX_FIELD_CHARS,
        description:
          'The JSON to validate: JSON text, or a JSON value; in lenient mode, text with JSON in prose or code fences. Unused in schema mode.',
      },
    },
    required: ['schema'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    schema:
      'The JSON Schema (draft-07) as JSON text or a JSON value. An OpenAI function ({type:"function",function:{name,parameters}} or {name,parameters}), an Anthropic tool ({name,input_schema}) or an MCP tool ({name,inputSchema}) is accepted too: its parameters schema is used.',
    target:
      'The JSON instance to validate, as JSON text or a JSON value (a string value is read as JSON text). In lenient mode: raw LLM output; the JSON is pulled out of code fences or surrounding prose. Required in validate and lenient modes, ignored in schema mode.',
    mode: 'validate (default): validate target against schema; lenient: extract the JSON from LLM text first, then validate; schema: check the schema itself (draft-07 meta-schema, regex patterns, $refs, tool name).',
  },
  endpoints: [
    {
      path: '/api/schema-validator/',
      methods: ['POST'],
      summary: 'Validate JSON or LLM output against a JSON Schema draft-07, or check a schema / tool schema',
    },
  ],
  faqs: [
    {
      question: 'What does `path` in an error mean?',
      answer:
        "A JSON Pointer (RFC 6901) to the failing location: in the target for validate/lenient (ajv's instancePath; '' is the root), in the schema document for schema mode. `schemaPath` says which schema keyword failed.",
    },
    {
      question: 'What happens in lenient mode when the text holds no JSON?',
      answer:
        "The result is `valid: false` with one error of keyword `json` at path '' explaining why (and `extractedFrom: null`); it is not a request error. Only extraction is done: broken JSON (trailing commas, comments, single quotes) is not repaired.",
    },
    {
      question: 'Are remote $ref schemas fetched?',
      answer:
        'Never. Only references inside the schema (#/definitions/..., or an $id defined in it) resolve; any other $ref makes the schema invalid (INVALID_INPUT in validate mode, an error of keyword $ref in schema mode). Only draft-07 is supported: another $schema is refused.',
    },
  ],
  howTo: [
    {
      title: 'Give the schema',
      description: 'Pass a draft-07 JSON Schema or a tool/function schema as `schema` (generic: `a`).',
    },
    {
      title: 'Give the output to check',
      description: 'Pass the JSON (or raw LLM output, with mode `lenient`) as `target` (generic: `b`).',
    },
    {
      title: 'Read the errors',
      description:
        'Check `valid`; each entry of `errors` has a JSON Pointer `path`, the failing `keyword` and a `message`.',
    },
    {
      title: 'Check a tool schema',
      description:
        'Set `mode` to `schema` to check the schema itself (meta-schema, patterns, $refs, tool name) before giving it to a model.',
    },
  ],
  relatedTools: ['schema-generator', 'structured-diff', 'api-response-mocker', 'token-counter'],
  deterministic: true,
});
