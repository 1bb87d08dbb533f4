import { defineTool } from '../../src/shared/tool-def.js';

export default defineTool({
  id: 'regex-tester',
  name: 'Regex Tester',
  description:
    'Tests a JavaScript regular expression against a text: lists matches with their groups, tests, replaces or splits.',
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
  ],
  tags: ['text', 'regex', 'debugging'],
  riskClass: 'M',
  policy: { limit: 60, burst: 20, windowSec: 60, inputMaxBytes: 131072, timeoutMs: 1000 },
  modes: ['match', 'test', 'replace', 'split'],
  modeField: 'mode',
  fields: { a: 'pattern', b: 'text', c: 'flags' },
  fieldsByMode: { replace: { c: 'replacement' } },
  input: {
    type: 'object',
    properties: {
      pattern: {
        type: 'string',
        minLength: 1,
        maxLength: 32768,
        description:
          'Regular expression, bare (\\d+) or as a literal (/\\d+/g; the tail after the last slash must be flag letters)',
      },
      text: { type: 'string', maxLength: 131072, default: '', description: 'Subject text' },
      flags: { type: 'string', maxLength: 8, description: 'Regex flags, any of d g i m s u y v' },
      replacement: {
        type: 'string',
        maxLength: 32768,
        description: "Replace mode: replacement text with $1, $<name>, $&, $`, $' and $$",
      },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  semanticFields: {
    pattern:
      'JavaScript regular expression, bare (e.g. (\\w+)@(\\w+)) or as /pattern/flags. Engine: native JavaScript RegExp',
    text: 'Subject text the pattern runs on (default empty). Indexes in the result are UTF-16 code unit offsets',
    flags:
      'Flags, any of d g i m s u y v, each at most once. When non-empty they replace the flags of a /pattern/flags literal. Without g, match and replace stop at the first match',
    replacement:
      "Replace mode only: replacement text; $1..$99, $<name>, $&, $` and $' insert parts of the match, $$ a dollar (default empty: deletes the matches)",
    mode: 'match (default: list matches with groups), test (true/false), replace, or split',
  },
  endpoints: [
    {
      path: '/api/regex-tester/',
      methods: ['GET', 'POST'],
      summary: 'Match, test, replace or split a text with a JavaScript regular expression',
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
        'Each run has a time limit; a catastrophic pattern (e.g. (a+)+$) ends with TIMEOUT and does not affect other requests.',
    },
  ],
  howTo: [
    { title: 'Give the pattern', description: 'Pass `pattern` (generic: `a`), e.g. /(\\d{4})-(\\d{2})/g.' },
    { title: 'Give the text', description: 'Pass the subject text as `text` (`b`).' },
    {
      title: 'Pick the mode',
      description: 'Set `mode` to match, test, replace or split; for replace, pass `replacement` (`c`).',
    },
  ],
  relatedTools: ['cron-expression', 'format-detective', 'token-counter'],
});
