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
  title: 'JSON Schema Generator',
  description:
    'Infers a JSON Schema (draft-07) from a JSON sample: types, nested objects and arrays, required fields and string formats; a strict mode for OpenAI Structured Outputs, and a merge mode that combines several samples.',
  input: {
    type: 'object',
    properties: {
      sample: {
        type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
        maxLength: MAX_SAMPLE_CHARS,
        description:
          'JSON sample to infer the schema from: a JSON value, or JSON text (strings are parsed as JSON). In merge mode, a JSON array whose elements are the samples. At most 64 levels deep and 200,000 values',
      },
      title: {
        type: 'string',
        maxLength: MAX_TITLE_CHARS,
        description: 'Optional title put on the root schema',
      },
    },
    required: ['sample'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 262144 },
  modes: {
    description:
      'draft-07 (default): plain inference; strict: OpenAI Structured Outputs (every property required, additionalProperties false, optional fields nullable); merge: combine several samples (properties in all of them are required)',
    each: { 'draft-07': {}, strict: {}, merge: {} },
  },
  slots: { a: 'sample', b: 'title' },
  deterministic: true,
  jsonText: ['sample'],
});
