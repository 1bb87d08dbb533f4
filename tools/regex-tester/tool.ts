import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['match', 'test', 'replace', 'split', 'analyze'] as const;
export const MAX_PATTERN_CHARS = 32768;
export const MAX_TEXT_CHARS = 131072;
export const MAX_FLAGS_CHARS = 8;
export const MAX_REPLACEMENT_CHARS = 32768;

const groupValue = {
  type: ['string', 'null'],
  description: 'Captured text; null when the group did not take part',
};

/** analyze mode's fields: recheck's diagnosis, bounded. */
const ANALYSIS = {
  status: {
    type: 'string',
    enum: ['safe', 'vulnerable', 'unknown'],
    description: 'analyze: ReDoS verdict of a backtracking engine such as V8 (unknown: see reason)',
  },
  checker: {
    type: ['string', 'null'],
    enum: ['automaton', 'fuzz', null],
    description: 'analyze: which recheck algorithm decided (automata theory, or fuzzing); null when none did',
  },
  complexity: {
    type: ['object', 'null'],
    description: 'analyze: worst-case matching time in the text length; null when unknown',
    properties: {
      type: {
        type: 'string',
        enum: ['constant', 'linear', 'safe', 'polynomial', 'exponential'],
        description:
          'constant, linear or safe (not super-linear); polynomial (with degree) or exponential: vulnerable',
      },
      degree: { type: 'integer', minimum: 2, description: 'polynomial: the degree (2: quadratic)' },
      summary: { type: 'string', description: "recheck's wording, e.g. 2nd degree polynomial" },
    },
    required: ['type', 'summary'],
    additionalProperties: false,
  },
  attack: {
    type: ['object', 'null'],
    description: 'analyze: a text that makes the pattern slow (vulnerable only)',
    properties: {
      pattern: {
        type: ['string', 'null'],
        maxLength: 2000,
        description:
          "The attack as a JavaScript expression, e.g. 'a'.repeat(31) + '\\x00' (null past 2000 characters)",
      },
      string: {
        type: ['string', 'null'],
        maxLength: 1024,
        description:
          'The attack string itself, or null when longer than 1024 characters (see pattern and length)',
      },
      length: { type: 'integer', minimum: 0, description: 'Length of the attack string' },
      pumps: {
        type: 'array',
        description: 'The repeated parts: prefix, then pump repeated; more repetitions make it slower',
        items: {
          type: 'object',
          properties: { prefix: { type: 'string' }, pump: { type: 'string' } },
          required: ['prefix', 'pump'],
          additionalProperties: false,
        },
      },
      suffix: { type: 'string', description: 'Text after the pumps, which makes the match fail' },
    },
    required: ['pattern', 'string', 'length', 'pumps', 'suffix'],
    additionalProperties: false,
  },
  hotspots: {
    type: 'array',
    maxItems: 100,
    description: 'analyze: the parts of the pattern that backtrack, as [start, end) offsets in pattern',
    items: {
      type: 'object',
      properties: {
        start: { type: 'integer', minimum: 0 },
        end: { type: 'integer', minimum: 0 },
        temperature: { type: 'string', enum: ['heat', 'normal'] },
      },
      required: ['start', 'end', 'temperature'],
      additionalProperties: false,
    },
  },
  reason: {
    type: ['object', 'null'],
    description: 'analyze, status unknown: why',
    properties: {
      kind: {
        type: 'string',
        enum: ['timeout', 'too-complex', 'unexpected'],
        description:
          'timeout: the analysis ran out of its budget; too-complex: nested too deep; unexpected: the analyser failed without a verdict (a pattern it cannot read is INVALID_INPUT instead)',
      },
      message: { type: 'string', maxLength: 300 },
    },
    required: ['kind', 'message'],
    additionalProperties: false,
  },
} as const;

/** The result of every mode (MCP outputSchema): the head, then the fields of the mode that ran. */
const OUTPUT = {
  type: 'object',
  properties: {
    mode: { type: 'string', enum: [...MODES], description: 'The mode that ran' },
    pattern: {
      type: 'string',
      description: 'Pattern source, without the slashes of a /pattern/flags literal',
    },
    flags: { type: 'string', pattern: '^[dgimsuvy]*$', description: 'Flags the pattern ran with' },
    flagsFrom: {
      type: 'string',
      enum: ['field', 'literal', 'none'],
      description: 'Where the flags came from: the flags field, the literal, or none',
    },
    global: {
      type: 'boolean',
      description: 'match: true with the g flag (all matches), else the first only',
    },
    matches: {
      type: 'array',
      maxItems: 1000,
      description: 'match: the listed matches (at most 1000)',
      items: {
        type: 'object',
        properties: {
          match: { type: 'string', description: 'Matched text' },
          index: { type: 'integer', minimum: 0, description: 'Start (UTF-16 code unit offset)' },
          end: { type: 'integer', minimum: 0, description: 'End, exclusive' },
          groups: {
            type: ['object', 'null'],
            additionalProperties: groupValue,
            description: 'Named groups, or null when the pattern has none',
          },
          captures: { type: 'array', items: groupValue, description: 'Numbered groups 1..n' },
          captureIndices: {
            type: 'array',
            description: 'd flag: [start, end] of each numbered group, null when unmatched',
            items: {
              type: ['array', 'null'],
              items: { type: 'integer', minimum: 0 },
              minItems: 2,
              maxItems: 2,
            },
          },
        },
        required: ['match', 'index', 'end', 'groups', 'captures'],
        additionalProperties: false,
      },
    },
    count: {
      type: 'integer',
      minimum: 0,
      description: 'match: all matches, listed or not; split: parts listed',
    },
    truncated: { type: 'boolean', description: 'match, split: true when not everything is listed' },
    timedOut: {
      type: 'boolean',
      description:
        'match, replace: true when the global iteration ran out of its time budget (3/4 of the run deadline); the matches found so far are given (replace: the rest of the text is unchanged)',
    },
    matched: { type: 'boolean', description: 'test: whether the pattern matches' },
    index: { type: ['integer', 'null'], minimum: 0, description: 'test: start of the first match, or null' },
    match: { type: ['string', 'null'], description: 'test: text of the first match, or null' },
    replacement: { type: 'string', description: 'replace: the replacement template used' },
    output: { type: 'string', description: 'replace: the text after replacement' },
    replacements: { type: 'integer', minimum: 0, description: 'replace: matches replaced' },
    parts: {
      type: 'array',
      maxItems: 1000,
      items: groupValue,
      description: 'split: the pieces, with captures spliced in (null: unmatched group)',
    },
    ...ANALYSIS,
  },
  required: ['mode', 'pattern', 'flags', 'flagsFrom'],
  additionalProperties: false,
};

/** The policy's timeoutMs: run.ts sizes its match and analysis budgets from it. */
export const TIMEOUT_MS = 1000;

export default defineTool({
  id: 'regex-tester',
  title: 'Regex Tester',
  description:
    'Tests a JavaScript regular expression against a text: lists matches with their groups, tests, replaces or splits; analyze checks the pattern for ReDoS.',
  input: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PATTERN_CHARS,
        description:
          'JavaScript regular expression, bare (e.g. (\\w+)@(\\w+)) or as /pattern/flags. Engine: native JavaScript RegExp',
      },
      text: {
        type: 'string',
        maxLength: MAX_TEXT_CHARS,
        default: '',
        description:
          'Subject text the pattern runs on (default empty; analyze ignores it). Indexes in the result are UTF-16 code unit offsets',
      },
      flags: {
        type: 'string',
        maxLength: MAX_FLAGS_CHARS,
        description:
          'Flags, any of d g i m s u y v, each at most once (analyze: not v). When non-empty they replace the flags of a /pattern/flags literal. Without g, match and replace stop at the first match',
      },
      replacement: {
        type: 'string',
        maxLength: MAX_REPLACEMENT_CHARS,
        description:
          "Replace mode only: replacement text; $1..$99, $<name>, $&, $` and $' insert parts of the match, $$ a dollar (default empty: deletes the matches)",
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { inputMaxBytes: 131072, timeoutMs: TIMEOUT_MS, riskClass: 'M' },
  modes: {
    description:
      'match (default: list matches with groups), test (true/false), replace, split, or analyze (static ReDoS check of the pattern with recheck: safe, vulnerable with an attack string, or unknown; text is ignored)',
    each: {
      match: {},
      test: {},
      replace: { slots: { c: 'replacement' }, options: ['flags'] },
      split: {},
      analyze: {
        path: 'analyze',
        summary: 'Check a JavaScript regular expression for ReDoS (catastrophic backtracking) with recheck',
      },
    },
  },
  slots: { a: 'pattern', b: 'text', c: 'flags' },
  deterministic: true,
});
