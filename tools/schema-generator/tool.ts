import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['draft-07', 'strict', 'merge'] as const;
export const MAX_SAMPLE_CHARS = 262144;
export const MAX_TITLE_CHARS = 200;

/** The result of every mode (MCP outputSchema). */
const OUTPUT = {
  type: 'object',
  properties: {
    schema: {
      type: 'object',
      description: 'The inferred JSON Schema (draft-07)',
      properties: {
        $schema: { const: 'http://json-schema.org/draft-07/schema#' },
        title: { type: 'string', description: 'The title given' },
      },
      required: ['$schema'],
      additionalProperties: true,
    },
    mode: { type: 'string', enum: [...MODES], description: 'The mode that ran' },
    samples: {
      type: 'integer',
      minimum: 1,
      description: 'Samples merged: the array length in merge mode, else 1',
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Notes, e.g. why OpenAI may still refuse a strict schema',
    },
  },
  required: ['schema', 'mode', 'samples', 'warnings'],
  additionalProperties: false,
};

export default defineTool({
  id: 'schema-generator',
  name: 'JSON Schema Generator',
  description:
    'Infers a JSON Schema (draft-07) from a JSON sample: types, nested objects and arrays, required fields and string formats; a strict mode for OpenAI Structured Outputs, and a merge mode that combines several samples.',
  category: 'ai',
  icon: 'braces',
  keywords: [
    'json schema',
    'schema generator',
    'infer schema',
    'draft-07',
    'structured outputs',
    'strict mode',
    'function calling',
    'openai',
    'json to schema',
  ],
  tags: ['json', 'json-schema', 'llm'],
  riskClass: 'L',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 262144, timeoutMs: 2000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'sample', b: 'title', c: null },
  input: {
    type: 'object',
    properties: {
      sample: {
        type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
        maxLength: MAX_SAMPLE_CHARS,
        description:
          'A JSON value, or JSON text (a string is parsed as JSON); in merge mode an array of samples',
      },
      title: { type: 'string', maxLength: MAX_TITLE_CHARS, description: 'Optional title of the root schema' },
    },
    required: ['sample'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    sample:
      'JSON sample to infer the schema from: a JSON value, or JSON text (strings are parsed as JSON). In merge mode, a JSON array whose elements are the samples. At most 64 levels deep and 200,000 values',
    title: 'Optional title put on the root schema',
    mode: 'draft-07 (default): plain inference; strict: OpenAI Structured Outputs (every property required, additionalProperties false, optional fields nullable); merge: combine several samples (properties in all of them are required)',
  },
  endpoints: [
    {
      path: '/api/schema-generator/',
      methods: ['GET', 'POST'],
      summary: 'Generate a draft-07 JSON Schema from a JSON sample',
    },
  ],
  faqs: [
    {
      question: 'Which fields become required?',
      answer:
        'A property is required when it is present with a non-null value in every object seen at that place (every element of an array, every sample in merge mode). Otherwise it is optional, and nullable if null was seen.',
    },
    {
      question: 'Which string formats are detected?',
      answer:
        'date-time (RFC 3339 with a time zone), date, uuid, email, ipv4, ipv6 and uri (scheme://...). A format is set only when every string at that place has it, and it is checked with the same ajv-formats validators the hub uses, so the schema always accepts its sample.',
    },
    {
      question: 'What does strict mode change?',
      answer:
        'It targets OpenAI Structured Outputs: every object lists all properties in required and sets additionalProperties to false; an optional property becomes nullable (type ["string","null"]); uri formats are dropped. The root should be an object: a warning says so otherwise, as it does past the API size limits (5000 properties in total, 10 levels of object nesting, 120,000 characters of property names).',
    },
  ],
  howTo: [
    { title: 'Paste a sample', description: 'Pass a JSON document as `sample` (generic: `a`).' },
    { title: 'Name it', description: 'Optionally set `title` (`b`).' },
    {
      title: 'Pick the mode',
      description:
        'Set `mode` to strict for LLM structured output, or merge with an array of several samples.',
    },
    { title: 'Use the schema', description: 'Copy `schema`; validate data with the schema validator tool.' },
  ],
  relatedTools: ['structured-output-validator', 'api-response-mocker', 'token-counter'],
  deterministic: true,
  jsonText: ['sample'],
});
