// The definition of the `uuid` tool (docs/writing-a-tool.md in the Tool Hub repository): a
// plain object, which the hub checks against its definition schema when it loads the package.

/** The UUID versions the tool generates (RFC 9562): random, and Unix-time ordered. */
export const VERSIONS = ['v4', 'v7'];
/** Most UUIDs one run generates. */
export const MAX_COUNT = 100;

export default {
  id: 'uuid',
  title: 'UUID Generator',
  description:
    'Generates RFC 9562 UUIDs: version 4 (122 random bits) or version 7 (a Unix-millisecond timestamp, then random bits, so they sort by creation time), one or up to 100 per run.',
  input: {
    type: 'object',
    properties: {
      count: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_COUNT,
        default: 1,
        description: `How many UUIDs to generate, 1 to ${MAX_COUNT} (default 1)`,
      },
      at: {
        type: 'string',
        format: 'date-time',
        description: 'v7 only: the time to encode (ISO 8601, e.g. 2026-01-01T00:00:00Z; default: now)',
      },
    },
    additionalProperties: false,
  },
  output: {
    type: 'object',
    properties: {
      version: { type: 'string', enum: [...VERSIONS], description: 'The UUID version generated' },
      uuids: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_COUNT,
        items: {
          type: 'string',
          pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
        },
        description: 'The UUIDs, lower case; version 7 ones in ascending order',
      },
    },
    required: ['version', 'uuids'],
    additionalProperties: false,
  },
  policy: { limit: 120, burst: 30, inputMaxBytes: 1024, timeoutMs: 1000 },
  modes: {
    field: 'version',
    description:
      'v4 (random, the default) or v7 (time-ordered: sorts by creation time, good for database keys)',
    each: { v4: {}, v7: { options: ['at'] } },
  },
  // The input has no required field: say which field the generic `a` carries.
  slots: { a: 'count' },
};
