import { defineTool } from '#tool-kit';

/** Formats the tool reads and writes; run.ts imports this list so the two never drift apart. */
export const FORMATS = ['json', 'ndjson', 'yaml', 'toml', 'csv', 'tsv', 'xml', 'ini'] as const;
export type Format = (typeof FORMATS)[number];
export const MODES = ['detect', 'convert'] as const;
/** Largest input, in UTF-8 bytes (the schema bounds its characters by the same number). */
export const MAX_INPUT_BYTES = 524288;

const FORMAT = { type: 'string', enum: [...FORMATS] };
const CONFIDENCE = { type: 'number', minimum: 0, maximum: 1 };

/** The result of both modes (MCP outputSchema): detect gives format, confidence and candidates; convert from to warnings. */
const OUTPUT = {
  type: 'object',
  properties: {
    format: {
      enum: [...FORMATS, null],
      description: 'detect: the most likely format, or null when none fits',
    },
    confidence: {
      ...CONFIDENCE,
      description: 'detect, and convert without from: confidence of the (detected) format, 0 to 1',
    },
    candidates: {
      type: 'array',
      description: 'detect: every format that accepts the text, best first',
      items: {
        type: 'object',
        properties: { format: FORMAT, confidence: CONFIDENCE },
        required: ['format', 'confidence'],
        additionalProperties: false,
      },
    },
    from: { ...FORMAT, description: 'convert: the source format, given or detected' },
    to: { ...FORMAT, description: 'convert: the target format' },
    output: { type: 'string', description: 'convert: the converted text' },
    detected: { type: 'boolean', description: 'convert: true when from was detected rather than given' },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'convert: what the conversion changed',
    },
  },
  anyOf: [
    { required: ['format', 'confidence', 'candidates'] },
    { required: ['from', 'to', 'output', 'detected', 'warnings'] },
  ],
  additionalProperties: false,
};

export default defineTool({
  id: 'format-detective',
  title: 'Format Detective',
  description:
    'Detects whether text is JSON, NDJSON, YAML, TOML, CSV, TSV, XML or INI (with a confidence score and the runner-ups) and converts between these formats where the data model allows.',
  input: {
    type: 'object',
    properties: {
      input: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_INPUT_BYTES,
        description: 'The text to inspect or convert (up to 512 KiB)',
      },
      to: {
        type: 'string',
        enum: [...FORMATS],
        description:
          'Convert mode: target format, one of json, ndjson, yaml, toml, csv, tsv, xml, ini (required)',
      },
      from: {
        type: 'string',
        enum: [...FORMATS],
        description: 'Convert mode: source format (same list); when absent the detected format is used',
      },
    },
    required: ['input'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 524288, timeoutMs: 3000 },
  modes: {
    field: null,
    description: 'detect (default) or convert; on the dedicated endpoints the path implies it',
    each: {
      detect: {
        path: 'detect',
        summary: 'Detect the format of a text, with confidence and runner-up candidates',
      },
      convert: { path: 'convert', summary: 'Convert a text from one structured format to another' },
    },
  },
  slots: { a: 'input', b: 'to', c: 'from' },
  deterministic: true,
});
