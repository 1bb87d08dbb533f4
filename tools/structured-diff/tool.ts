import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['summary', 'patch', 'merge-patch', 'apply'] as const;
/** Modes of the main endpoint; apply has its own (`/api/structured-diff/apply/`). */
export const DIFF_MODES = ['summary', 'patch', 'merge-patch'] as const;
export const PATCH_FORMATS = ['auto', 'json-patch', 'merge-patch'] as const;
/** Largest document text, in UTF-8 bytes (the schema bounds its characters by the same number). */
export const MAX_DOCUMENT_BYTES = 524288;

/** A field that is JSON/YAML text, or (on POST) the JSON value itself. */
const documentField = (description: string) => ({
  type: ['string', 'object', 'array', 'number', 'boolean', 'null'],
  maxLength: MAX_DOCUMENT_BYTES,
  description,
});

const SOURCE = { type: 'string', enum: ['json', 'yaml', 'value'] };
const OP = { type: 'string', enum: ['add', 'remove', 'replace'], description: 'RFC 6902 operation' };
const POINTER = {
  type: 'string',
  pattern: '^(/([^~/]|~[01])*)*$',
  description: 'JSON Pointer (RFC 6901); empty for the root',
};

const DIFF_RESULT = ['equal', 'changes', 'stats', 'truncated', 'formats'];
const APPLY_RESULT = ['result', 'patchFormat', 'formats'];

/**
 * The result of every mode (MCP outputSchema). The diff modes answer equal, changes, stats,
 * truncated and formats (patch mode adds patch; merge-patch mode adds mergePatch and
 * mergePatchLossless); apply answers result, patchFormat and formats (matchesTarget and
 * firstDifference with a target).
 */
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
      description:
        'How each document was read: json or yaml text, or a JSON value (diff modes: left, right; apply: document, patch, target)',
      properties: {
        left: SOURCE,
        right: SOURCE,
        document: SOURCE,
        patch: SOURCE,
        target: SOURCE,
      },
      anyOf: [{ required: ['left', 'right'] }, { required: ['document', 'patch'] }],
      additionalProperties: false,
    },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description:
        'Numbers a 64-bit float cannot hold exactly; merge-patch mode: the nulls a merge patch cannot set and the arrays it sends whole (only when there are any)',
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
    mergePatch: {
      description:
        'merge-patch mode: the RFC 7386 JSON Merge Patch turning left into right (null removes a member; arrays are sent whole)',
    },
    mergePatchLossless: {
      type: 'boolean',
      description:
        'merge-patch mode: true when applying mergePatch to left gives right exactly; false when right holds nulls a merge patch cannot set (warnings names them)',
    },
    result: { description: 'apply: the document after the patch' },
    patchFormat: {
      type: 'string',
      enum: ['json-patch', 'merge-patch'],
      description: 'apply: how the patch was read, RFC 6902 JSON Patch or RFC 7386 merge patch',
    },
    matchesTarget: {
      type: 'boolean',
      description: 'apply with a target: true when the result equals the target (as JSON data)',
    },
    firstDifference: {
      type: 'object',
      description:
        'apply, when the result is not the target: the first place they differ, with the value on each side (absent on a side that lacks it)',
      properties: {
        path: POINTER,
        result: { description: 'the value in the result' },
        target: { description: 'the value in the target' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  anyOf: [{ required: DIFF_RESULT }, { required: APPLY_RESULT }],
  additionalProperties: false,
};

export default defineTool({
  id: 'structured-diff',
  title: 'JSON / YAML Diff',
  description:
    'Compares two JSON or YAML documents and lists every added, removed and changed value by JSON Pointer; patch mode also returns the RFC 6902 JSON Patch that turns the left document into the right one, merge-patch mode the RFC 7386 merge patch; apply mode applies either kind of patch and checks the result against a target.',
  input: {
    type: 'object',
    // Which fields are needed depends on the mode, which the schema cannot see: run.ts checks.
    properties: {
      left: documentField(
        'Diff modes (required): the original document: JSON or YAML text (a string is always parsed), or a JSON object/array on POST',
      ),
      right: documentField('Diff modes (required): the document to compare with left, in the same forms'),
      document: documentField('Apply mode (required): the document to patch, in the same forms as left'),
      patch: documentField(
        'Apply mode (required): an RFC 6902 JSON Patch (array of add, remove, replace, move, copy, test operations) or an RFC 7386 JSON Merge Patch, as JSON/YAML text or a JSON value',
      ),
      target: documentField(
        'Apply mode (optional): the expected result; the answer then says whether the result equals it (matchesTarget) and where they first differ',
      ),
      patchFormat: {
        type: 'string',
        enum: [...PATCH_FORMATS],
        default: 'auto',
        description:
          'Apply mode: auto (default: an array is a JSON Patch, anything else a merge patch), json-patch or merge-patch (to apply an array as a merge patch, which replaces the whole document). Ignored by the diff modes',
      },
    },
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 524288, timeoutMs: 3000 },
  modes: {
    description:
      'summary (default): equal, changes and stats; patch: also the RFC 6902 patch turning left into right; merge-patch: also the RFC 7386 merge patch and whether it is lossless; apply: apply a patch to document (own endpoint /api/structured-diff/apply/)',
    each: {
      summary: {},
      patch: {},
      'merge-patch': {},
      apply: {
        slots: { a: 'document', b: 'patch', c: 'target' },
        options: ['patchFormat'],
        path: 'apply',
        summary:
          'Apply an RFC 6902 JSON Patch or an RFC 7386 merge patch to a document, optionally checking the result against a target',
      },
    },
  },
  slots: { a: 'left', b: 'right' },
  endpoints: [
    {
      path: '/api/structured-diff/',
      methods: ['GET', 'POST'],
      summary:
        'Compare two JSON or YAML documents; optionally get the RFC 6902 patch or the RFC 7386 merge patch',
      modes: [...DIFF_MODES],
    },
    {
      path: '/api/structured-diff/apply/',
      methods: ['GET', 'POST'],
      summary:
        'Apply an RFC 6902 JSON Patch or an RFC 7386 merge patch to a document, optionally checking the result against a target',
      mode: 'apply',
    },
  ],
  deterministic: true,
});
