import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['parse', 'build'] as const;
export const MAX_EXPRESSION_CHARS = 256;
export const MAX_FIELDS_CHARS = 2048;
export const MAX_TIMEZONE_CHARS = 64;
export const DEFAULT_TIMEZONE = 'UTC';
export const MAX_COUNT = 50;
export const DEFAULT_COUNT = 5;

/** Cron field names in cron order (cron-fields.ts FIELD_NAMES; test/output-schemas.test.ts checks they agree). */
const FIELD_NAMES = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'];

/**
 * The result of both modes (MCP outputSchema). A wrong expression in parse mode is a result:
 * valid false with error and field. Times are ISO 8601, but years past 9999 are written
 * +YYYYYY, so no date-time format is declared.
 */
const OUTPUT = {
  type: 'object',
  properties: {
    valid: {
      type: 'boolean',
      description: 'false: the expression is wrong (parse mode); see error and field',
    },
    expression: { type: 'string', description: 'The expression (macro as given; build: the one built)' },
    macro: { type: ['string', 'null'], description: 'parse: the @macro used, lower-cased, or null' },
    error: { type: 'string', description: 'valid false: what is wrong' },
    field: { enum: [...FIELD_NAMES, null], description: 'valid false: the faulty field, or null' },
    description: { type: ['string', 'null'], description: 'Plain-English description; null when invalid' },
    fields: {
      type: ['object', 'null'],
      description:
        'The expression split into named fields (second only with 6 fields); null when unsplittable',
      properties: Object.fromEntries(FIELD_NAMES.map((f) => [f, { type: 'string' }])),
      additionalProperties: false,
    },
    hasSeconds: { type: 'boolean', description: 'valid: true for a 6-field expression' },
    timezone: { type: 'string', description: 'valid: IANA time zone of nextRuns' },
    from: { type: 'string', description: 'valid: instant after which nextRuns start (ISO 8601, UTC)' },
    nextRuns: {
      type: 'array',
      maxItems: MAX_COUNT,
      items: { type: 'string' },
      description: 'Next run times, ISO 8601 with the zone offset; empty when invalid',
    },
    note: { type: 'string', description: 'Why fewer runs than asked are listed, when so' },
  },
  required: ['valid', 'expression', 'description', 'fields', 'nextRuns'],
  additionalProperties: false,
};

export default defineTool({
  id: 'cron-expression',
  name: 'Cron Expression Parser & Builder',
  description:
    'Explains a cron expression in plain English and lists its next run times in any IANA time zone (DST-aware), or builds an expression from its fields.',
  category: 'devtools',
  icon: 'clock',
  keywords: ['cron', 'crontab', 'schedule', 'next run', 'timezone', 'dst', 'quartz', 'cron builder'],
  tags: ['scheduling', 'cron', 'time'],
  riskClass: 'L',
  policy: { limit: 120, burst: 30, windowSec: 60, inputMaxBytes: 4096, timeoutMs: 1000 },
  modes: [...MODES],
  modeField: null,
  // `from` defaults to now, so the next runs move with the clock.
  volatileResultFields: ['from', 'nextRuns'],
  fields: { a: 'expression', b: 'timezone', c: 'count' },
  fieldsByMode: { build: { a: 'fields' } },
  input: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION_CHARS,
        description: 'Cron expression: 5 fields, 6 fields (seconds first) or a macro such as @daily',
      },
      fields: {
        type: ['object', 'string'],
        maxLength: MAX_FIELDS_CHARS,
        description:
          'JSON object of cron fields: second, minute, hour, dayOfMonth, month, dayOfWeek (strings, integers or lists)',
      },
      timezone: {
        type: 'string',
        maxLength: MAX_TIMEZONE_CHARS,
        default: DEFAULT_TIMEZONE,
        description: 'IANA time zone of the next runs, e.g. Europe/Paris',
      },
      count: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_COUNT,
        default: DEFAULT_COUNT,
        description: 'Number of next runs',
      },
      from: {
        type: 'string',
        format: 'date-time',
        maxLength: 40,
        description: 'Start instant of the next runs (ISO 8601 with Z or an offset); default now',
      },
    },
    additionalProperties: false,
  },
  output: OUTPUT,
  semanticFields: {
    expression:
      'Parse mode: the cron expression. 5 fields (minute hour dayOfMonth month dayOfWeek), 6 fields (second first), or @yearly @annually @monthly @weekly @daily @midnight @hourly. Names (JAN, MON), ranges, lists, steps, ?, L and n#k are accepted; H and W are not',
    fields:
      'Build mode: JSON object with any of second, minute, hour, dayOfMonth, month, dayOfWeek; each a cron field text, an integer or a list. Unset fields are "*" except minute, which defaults to "0"; second only when given',
    timezone:
      'IANA time zone (default UTC) in which nextRuns are computed and written, with their UTC offset',
    count: `How many next runs to list, 0 to ${MAX_COUNT} (default ${DEFAULT_COUNT})`,
    from: 'ISO 8601 instant after which nextRuns start (exclusive); default the current time. Set it for reproducible results',
  },
  endpoints: [
    {
      path: '/api/cron-expression/parse/',
      methods: ['GET', 'POST'],
      summary: 'Explain a cron expression and list its next runs',
      mode: 'parse',
    },
    {
      path: '/api/cron-expression/build/',
      methods: ['GET', 'POST'],
      summary: 'Build a cron expression from its fields',
      mode: 'build',
    },
  ],
  faqs: [
    {
      question: 'What happens with an invalid expression?',
      answer:
        'Parse mode answers with valid: false, an error naming the faulty field (e.g. "minute field: 61 is out of range 0-59") and field. Build mode refuses bad fields with INVALID_INPUT.',
    },
    {
      question: 'How are daylight-saving changes handled?',
      answer:
        'Runs are computed in the given time zone, whatever the size of its shifts (one hour, or 30 minutes as on Lord Howe Island). A time skipped by spring-forward is moved forward by the length of the gap (02:30 becomes 03:30 after a one-hour gap; 02:00 becomes 02:30 after a 30-minute one). A fixed time repeated at fall-back (fixed minute and hour, e.g. 30 1 * * * or 0 1-3 * * *) runs once, at its first occurrence; a job whose minute or hour field is a wildcard, a step or every value (0 * * * *, */15 1 * * *) runs in both passes of the repeated interval. Runs are strictly increasing, never duplicated, and every run carries its UTC offset.',
    },
    {
      question: 'What if both day of month and day of week are set?',
      answer:
        'As in standard (Vixie) cron, when neither field is * or ?, a day matching either runs: 0 0 31 4 5 runs at midnight on 31 April (never) or on any Friday in April, and its description says so ("on day 31 of the month, or on Friday, only in April").',
    },
    {
      question: 'Are 6-field expressions supported?',
      answer: 'Yes: with 6 fields the first is seconds (0-59), as in node-cron and Quartz-like schedulers.',
    },
  ],
  howTo: [
    {
      title: 'Explain an expression',
      description: 'Call /api/cron-expression/parse/ with `expression` (generic: `a`, mode parse).',
    },
    {
      title: 'Get next runs in your zone',
      description: 'Add `timezone` (`b`), `count` (`c`) and optionally `from` for a fixed start instant.',
    },
    {
      title: 'Build an expression',
      description:
        'Call /api/cron-expression/build/ with `fields`, e.g. {"minute":"0","hour":"*/2","dayOfWeek":"1-5"}.',
    },
  ],
  relatedTools: ['regex-tester', 'format-detective'],
  // `from` defaults to the clock: the same input is the same answer only with `from` given.
  deterministic: { whenGiven: ['from'] },
});
