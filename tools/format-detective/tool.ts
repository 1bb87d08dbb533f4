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
  name: 'Format Detective',
  description:
    'Detects whether text is JSON, NDJSON, YAML, TOML, CSV, TSV, XML or INI (with a confidence score and the runner-ups) and converts between these formats where the data model allows.',
  category: 'devtools',
  icon: 'file-search',
  keywords: [
    'format detection',
    'json',
    'yaml',
    'toml',
    'csv',
    'tsv',
    'xml',
    'ini',
    'ndjson',
    'converter',
    'json to yaml',
    'csv to json',
  ],
  tags: ['data', 'conversion', 'parsing'],
  riskClass: 'L',
  hasApi: true,
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 524288, timeoutMs: 3000 },
  modes: [...MODES],
  modeField: null,
  fields: { a: 'input', b: 'to', c: 'from' },
  input: {
    type: 'object',
    properties: {
      input: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_INPUT_BYTES,
        description: 'The text to detect or convert',
      },
      to: { type: 'string', enum: [...FORMATS], description: 'Target format (convert mode)' },
      from: {
        type: 'string',
        enum: [...FORMATS],
        description: 'Source format (convert mode); detected when absent',
      },
    },
    required: ['input'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    input: 'The text to inspect or convert (up to 512 KiB)',
    to: 'Convert mode: target format, one of json, ndjson, yaml, toml, csv, tsv, xml, ini (required)',
    from: 'Convert mode: source format (same list); when absent the detected format is used',
    mode: 'detect (default) or convert; on the dedicated endpoints the path implies it',
  },
  endpoints: [
    {
      path: '/api/format-detective/detect/',
      methods: ['GET', 'POST'],
      summary: 'Detect the format of a text, with confidence and runner-up candidates',
      mode: 'detect',
    },
    {
      path: '/api/format-detective/convert/',
      methods: ['GET', 'POST'],
      summary: 'Convert a text from one structured format to another',
      mode: 'convert',
    },
  ],
  faqs: [
    {
      question: 'How is the confidence computed?',
      answer:
        'Each format gets a heuristic score from 0 to 1: the text must parse with that format, and syntax specific to it raises the score. Scores are not probabilities. When a text is valid in several formats (JSON is also YAML), the more specific format wins.',
    },
    {
      question: 'Why is a conversion refused?',
      answer:
        'Not every format can hold every shape of data: CSV and TSV need an array of flat objects, TOML and INI need a top-level table and have no null, NDJSON needs a top-level array, INI cannot hold arrays of tables nor keys with "=" (or "]" in a section name, or __proto__), XML cannot hold control characters or unpaired surrogates. The error names the value that does not fit.',
    },
    {
      question: 'What is lost in a conversion?',
      answer:
        'CSV, TSV, XML and INI store text only: on reading, true/false and plain numbers become booleans and numbers, and an empty CSV cell becomes null. XML attributes become "@name" keys and a repeated element becomes an array; TOML dates become ISO strings. YAML is read with the core schema: no custom tags, and aliases are limited. DOCTYPE entities in XML are never expanded. Every conversion into TOML, CSV, TSV, XML or INI is read back: when that would not give the same data (a string "123" in CSV, a one-item array or padded text in XML), `warnings` names the first differences.',
    },
  ],
  howTo: [
    { title: 'Paste the text', description: 'Send it as `input` (generic: `a`).' },
    {
      title: 'Detect',
      description:
        'Call /api/format-detective/detect/ (generic mode `detect`) to get `format`, `confidence` and `candidates`.',
    },
    {
      title: 'Convert',
      description:
        'Call /api/format-detective/convert/ with `to` (generic `b`), and `from` (`c`) if you know the source format.',
    },
  ],
  relatedTools: ['structured-diff', 'schema-generator', 'structured-output-validator'],
  deterministic: true,
});
