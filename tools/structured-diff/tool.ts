import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['summary', 'patch'] as const;
/** Largest document text, in UTF-8 bytes (the schema bounds its characters by the same number). */
export const MAX_DOCUMENT_BYTES = 524288;

/** A field that is JSON/YAML text, or (on POST) the JSON value itself. */
const documentField = (description: string) => ({
  type: ['string', 'object', 'array', 'number', 'boolean', 'null'],
  maxLength: MAX_DOCUMENT_BYTES,
  description,
});

const OP = { type: 'string', enum: ['add', 'remove', 'replace'], description: 'RFC 6902 operation' };
const POINTER = {
  type: 'string',
  pattern: '^(/([^~/]|~[01])*)*$',
  description: 'JSON Pointer (RFC 6901); empty for the root',
};

/** The result of both modes (MCP outputSchema); patch mode adds patch. */
const OUTPUT = {
  type: 'object',
  properties: {
    equal: { type: 'boolean', description: 'true when the documents hold the same data' },
    changes: {
      type: 'array',
      maxItems: 1000,
      description: 'The changes (at most 1000; stats counts all)',
      items: {
        type: 'object',
        properties: {
          op: OP,
          path: POINTER,
          oldValue: { description: 'remove, replace: the value in left' },
          newValue: { description: 'add, replace: the value in right' },
        },
        required: ['op', 'path'],
        additionalProperties: false,
      },
    },
    stats: {
      type: 'object',
      description: 'Counts of every change',
      properties: {
        added: { type: 'integer', minimum: 0 },
        removed: { type: 'integer', minimum: 0 },
        changed: { type: 'integer', minimum: 0 },
      },
      required: ['added', 'removed', 'changed'],
      additionalProperties: false,
    },
    truncated: { type: 'boolean', description: 'true when changes lists fewer than stats counts' },
    formats: {
      type: 'object',
      description: 'How each document was read: json or yaml text, or a JSON value',
      properties: {
        left: { type: 'string', enum: ['json', 'yaml', 'value'] },
        right: { type: 'string', enum: ['json', 'yaml', 'value'] },
      },
      required: ['left', 'right'],
      additionalProperties: false,
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'Numbers a 64-bit float cannot hold exactly (only when there are any)',
    },
    patch: {
      type: 'array',
      description: 'patch mode: the RFC 6902 JSON Patch turning left into right',
      items: {
        type: 'object',
        properties: { op: OP, path: POINTER, value: { description: 'add, replace: the new value' } },
        required: ['op', 'path'],
        additionalProperties: false,
      },
    },
  },
  required: ['equal', 'changes', 'stats', 'truncated', 'formats'],
  additionalProperties: false,
};

export default defineTool({
  id: 'structured-diff',
  name: 'JSON / YAML Diff',
  description:
    'Compares two JSON or YAML documents and lists every added, removed and changed value by JSON Pointer; patch mode also returns the RFC 6902 JSON Patch that turns the left document into the right one.',
  category: 'devtools',
  icon: 'git-compare',
  keywords: [
    'json diff',
    'yaml diff',
    'compare json',
    'json patch',
    'rfc 6902',
    'json pointer',
    'structured diff',
  ],
  tags: ['data', 'diff', 'json'],
  riskClass: 'L',
  hasApi: true,
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 524288, timeoutMs: 3000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'left', b: 'right', c: null },
  input: {
    type: 'object',
    properties: {
      left: documentField('The original document: JSON or YAML text, or a JSON value'),
      right: documentField('The changed document: JSON or YAML text, or a JSON value'),
    },
    required: ['left', 'right'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    left: 'The original document: JSON or YAML text (a string is always parsed), or a JSON object/array on POST',
    right: 'The document to compare with left, in the same forms',
    mode: 'summary (default): equal, changes and stats; patch: also the RFC 6902 patch turning left into right',
  },
  endpoints: [
    {
      path: '/api/structured-diff/',
      methods: ['GET', 'POST'],
      summary: 'Compare two JSON or YAML documents; optionally get the RFC 6902 patch',
    },
  ],
  faqs: [
    {
      question: 'How are arrays compared?',
      answer:
        'Index by index, without LCS or move detection: position i of left is compared with position i of right, extra items are added or removed at the end. Inserting an item at the front therefore reports every later position as replaced. In exchange every path points straight into left (remove, replace) or right (add), and the patch uses only add, remove and replace.',
    },
    {
      question: 'How is the text read?',
      answer:
        'A string is parsed as JSON first, then as YAML (core schema, one document, at most 50 alias expansions, no custom tags). To compare a plain string, send it as JSON text, e.g. "\\"hello\\"". Documents may nest 100 levels deep.',
    },
    {
      question: 'How are numbers compared?',
      answer:
        'As 64-bit floats, after parsing: 1.0 equals 1, and two integers past 2^53 (or decimals past ~17 digits) that round to the same double compare equal. When a side given as text holds such a number, `warnings` names it. Numbers past the float range (1e400, .inf) are refused.',
    },
    {
      question: 'Are all changes listed?',
      answer:
        'The first 1000 changes are listed (then `truncated` is true); `stats` always counts all of them. The patch is always complete: when it would exceed 100000 operations, patch mode is refused rather than returning part of it.',
    },
  ],
  howTo: [
    {
      title: 'Give both documents',
      description: 'Send `left` (generic `a`) and `right` (`b`) as JSON or YAML text.',
    },
    {
      title: 'Read the changes',
      description:
        'Each change has `op` (add, remove, replace), a JSON Pointer `path`, and `oldValue`/`newValue`.',
    },
    {
      title: 'Get a patch',
      description: 'Set `mode` to `patch` to also receive the RFC 6902 operations that turn left into right.',
    },
  ],
  relatedTools: ['format-detective', 'schema-generator', 'structured-output-validator'],
  deterministic: true,
});
