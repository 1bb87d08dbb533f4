// The definition of the `uuid` tool (docs/tool-packages.md in the Tool Hub repository). A
// package cannot import the hub's `#tool-kit`, so the definition is a plain object: the hub
// checks it against its definition schema at boot, like a built-in tool's.

/** The UUID versions the tool generates (RFC 9562): random, and Unix-time ordered. */
export const VERSIONS = ['v4', 'v7'];
/** Most UUIDs one run generates. */
export const MAX_COUNT = 100;

export default {
  id: 'uuid',
  name: 'UUID Generator',
  description:
    'Generates RFC 9562 UUIDs: version 4 (122 random bits) or version 7 (a Unix-millisecond timestamp, then random bits, so they sort by creation time), one or up to 100 per run.',
  category: 'devtools',
  icon: 'hash',
  keywords: ['uuid', 'guid', 'uuidv4', 'uuidv7', 'rfc 9562', 'identifier', 'random'],
  tags: ['identifiers', 'generation'],
  riskClass: 'L',
  policy: { limit: 120, burst: 30, windowSec: 60, inputMaxBytes: 1024, timeoutMs: 1000 },
  modes: [...VERSIONS],
  modeField: 'version',
  fields: { a: 'count', b: null, c: null },
  input: {
    type: 'object',
    properties: {
      count: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_COUNT,
        default: 1,
        description: `How many UUIDs to generate (1 to ${MAX_COUNT})`,
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
  semanticFields: {
    count: 'How many UUIDs to generate, 1 to 100 (default 1)',
    version: 'v4 (random, the default) or v7 (time-ordered: sorts by creation time, good for database keys)',
  },
  endpoints: [
    { path: '/api/uuid/', methods: ['GET', 'POST'], summary: 'Generate version 4 or version 7 UUIDs' },
  ],
  faqs: [
    {
      question: 'Version 4 or version 7?',
      answer:
        'Version 4 is 122 random bits: nothing about it can be guessed. Version 7 starts with the Unix time in milliseconds, so keys made later sort later, which keeps database indexes compact; it reveals when it was made.',
    },
    {
      question: 'Are the UUIDs of one run in order?',
      answer: 'Version 7 UUIDs of one run are returned in ascending order; version 4 UUIDs have no order.',
    },
  ],
  howTo: [
    { title: 'Pick the version', description: 'Set `version` to v4 (default) or v7 (generic: `mode`).' },
    { title: 'Say how many', description: 'Set `count` (generic: `a`), 1 to 100; default 1.' },
  ],
  relatedTools: [],
  deterministic: false,
};
