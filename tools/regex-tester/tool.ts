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

export default defineTool({
  id: 'regex-tester',
  name: 'Regex Tester',
  description:
    'Tests a JavaScript regular expression against a text: lists matches with their groups, tests, replaces or splits; analyze checks the pattern for ReDoS.',
  category: 'devtools',
  icon: 'regex',
  keywords: [
    'regex',
    'regexp',
    'regular expression',
    'match',
    'replace',
    'split',
    'capture groups',
    'javascript',
    'redos',
    'catastrophic backtracking',
  ],
  tags: ['text', 'regex', 'debugging'],
  riskClass: 'M',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 131072, timeoutMs: 1000 },
  modes: [...MODES],
  modeField: 'mode',
  fields: { a: 'pattern', b: 'text', c: 'flags' },
  fieldsByMode: { replace: { c: 'replacement' } },
  // Replace's c is the replacement; its flags travel as an option.
  optionModes: { flags: ['replace'] },
  input: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_PATTERN_CHARS,
        description:
          'Regular expression, bare (\\d+) or as a literal (/\\d+/g; the tail after the last slash must be flag letters)',
      },
      text: { type: 'string', maxLength: MAX_TEXT_CHARS, default: '', description: 'Subject text' },
      flags: {
        type: 'string',
        maxLength: MAX_FLAGS_CHARS,
        description: 'Regex flags, any of d g i m s u y v',
      },
      replacement: {
        type: 'string',
        maxLength: MAX_REPLACEMENT_CHARS,
        description: "Replace mode: replacement text with $1, $<name>, $&, $`, $' and $$",
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    pattern:
      'JavaScript regular expression, bare (e.g. (\\w+)@(\\w+)) or as /pattern/flags. Engine: native JavaScript RegExp',
    text: 'Subject text the pattern runs on (default empty; analyze ignores it). Indexes in the result are UTF-16 code unit offsets',
    flags:
      'Flags, any of d g i m s u y v, each at most once (analyze: not v). When non-empty they replace the flags of a /pattern/flags literal. Without g, match and replace stop at the first match',
    replacement:
      "Replace mode only: replacement text; $1..$99, $<name>, $&, $` and $' insert parts of the match, $$ a dollar (default empty: deletes the matches)",
    mode: 'match (default: list matches with groups), test (true/false), replace, split, or analyze (static ReDoS check of the pattern with recheck: safe, vulnerable with an attack string, or unknown; text is ignored)',
  },
  endpoints: [
    {
      path: '/api/regex-tester/',
      methods: ['GET', 'POST'],
      summary: 'Match, test, replace or split a text with a JavaScript regular expression',
    },
    {
      path: '/api/regex-tester/analyze/',
      methods: ['GET', 'POST'],
      summary: 'Check a JavaScript regular expression for ReDoS (catastrophic backtracking) with recheck',
      mode: 'analyze',
    },
  ],
  faqs: [
    {
      question: 'Why do I get only one match?',
      answer:
        'JavaScript semantics: without the g flag only the first match is found. Add g (flags "g" or /pattern/g) to list all; up to 1000 are listed, count has them all.',
    },
    {
      question: 'How do flags in /pattern/flags and the flags field combine?',
      answer:
        "A non-empty flags field replaces the literal's flags. In replace mode through the generic runtime (where c is the replacement), give the flags in the literal: /pattern/g.",
    },
    {
      question: 'What about slow patterns?',
      answer:
        'Each run has a time limit. A global match or replace that runs out of 3/4 of it stops with the matches found so far and timedOut: true. One single match attempt cannot be stopped: a catastrophic pattern (e.g. ^(a+)+$ with the u flag) ends with TIMEOUT and does not affect other requests. mode analyze tells beforehand whether a pattern is vulnerable.',
    },
    {
      question: 'How does analyze decide, and can it be wrong?',
      answer:
        'It runs recheck (pure JavaScript build, in the worker): automata theory when the pattern allows (exact), fuzzing otherwise (backreferences, lookarounds, large counted repeats; it can miss a slow input). It reports the worst-case complexity for a backtracking engine and an attack string. When its 400 ms budget runs out the status is unknown with reason timeout. V8 in this hub also falls back to a linear-time engine on excessive backtracking for patterns without the u flag, backreferences or lookarounds, so a vulnerable verdict matters most for code that runs the pattern elsewhere.',
    },
  ],
  howTo: [
    { title: 'Give the pattern', description: 'Pass `pattern` (generic: `a`), e.g. /(\\d{4})-(\\d{2})/g.' },
    { title: 'Give the text', description: 'Pass the subject text as `text` (`b`).' },
    {
      title: 'Pick the mode',
      description:
        'Set `mode` to match, test, replace or split; for replace, pass `replacement` (`c`). Set `mode` to analyze (or call /api/regex-tester/analyze/) to check the pattern for ReDoS.',
    },
  ],
  relatedTools: ['cron-expression', 'format-detective', 'token-counter'],
  deterministic: true,
});
