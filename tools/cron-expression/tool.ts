import { defineTool } from '#tool-kit';

/** The contract run.ts relies on; the input schema below enforces it before a run. */
export const MODES = ['parse', 'build', 'convert'] as const;
/** Cron dialects: Unix (Vixie cron, 5 fields or 6 with seconds first), Quartz, AWS EventBridge. */
export const DIALECTS = ['unix', 'quartz', 'eventbridge'] as const;
export type Dialect = (typeof DIALECTS)[number];
export const MAX_EXPRESSION_CHARS = 256;
export const MAX_FIELDS_CHARS = 2048;
export const MAX_TIMEZONE_CHARS = 64;
export const DEFAULT_TIMEZONE = 'UTC';
export const MAX_COUNT = 50;
export const DEFAULT_COUNT = 5;

/** Cron field names in cron order (cron-fields.ts FIELD_NAMES; test/output-schemas.test.ts checks they agree). */
const FIELD_NAMES = ['second', 'minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek', 'year'];

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
    expression: {
      type: 'string',
      description: 'The expression (macro as given; build: the one built; convert: the converted one)',
    },
    dialect: {
      enum: [...DIALECTS],
      description:
        'Dialect the expression was read in (convert: the target). Absent for a Unix expression when no dialect was named, as before dialects existed',
    },
    sourceDialect: { enum: [...DIALECTS], description: 'convert: the dialect of the original expression' },
    original: { type: 'string', description: 'convert: the expression that was converted, as given' },
    warnings: {
      type: 'array',
      items: { type: 'string' },
      description: 'convert: what could not be carried over exactly (dropped seconds or years, extensions)',
    },
    rate: {
      type: 'object',
      description: 'EventBridge rate(): its value and unit as written',
      properties: {
        value: { type: 'integer', minimum: 1 },
        unit: { enum: ['minute', 'minutes', 'hour', 'hours', 'day', 'days'] },
      },
      required: ['value', 'unit'],
      additionalProperties: false,
    },
    assumption: {
      type: 'string',
      description:
        'What nextRuns assume beyond the expression: rate() counted from `from` as its start; EventBridge time zone',
    },
    macro: { type: ['string', 'null'], description: 'parse: the @macro used, lower-cased, or null' },
    error: { type: 'string', description: 'valid false: what is wrong' },
    field: { enum: [...FIELD_NAMES, null], description: 'valid false: the faulty field, or null' },
    description: { type: ['string', 'null'], description: 'Plain-English description; null when invalid' },
    fields: {
      type: ['object', 'null'],
      description:
        'The expression split into named fields (second only with 6 fields or Quartz, year only with Quartz or EventBridge); null when unsplittable or rate()',
      properties: Object.fromEntries(FIELD_NAMES.map((f) => [f, { type: 'string' }])),
      additionalProperties: false,
    },
    hasSeconds: { type: 'boolean', description: 'valid: true for a 6-field Unix or any Quartz expression' },
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
    'Explains a cron expression (Unix, Quartz or AWS EventBridge) in plain English and lists its next run times in any IANA time zone (DST-aware), builds an expression from its fields, or converts it between dialects.',
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
  fieldsByMode: { build: { a: 'fields' }, convert: { b: 'to' } },
  // Build writes Unix expressions from fields: no dialect. `from` belongs to every mode (build
  // lists the next runs of what it built too); convert's b is `to`, and its next runs still
  // take a time zone, as an option.
  optionModes: { dialect: ['parse', 'convert'], timezone: ['convert'] },
  input: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION_CHARS,
        description:
          'Cron expression: 5 fields, 6 fields (seconds first) or a macro such as @daily; Quartz (6 or 7 fields); EventBridge cron(...) or rate(...)',
      },
      dialect: {
        type: 'string',
        enum: [...DIALECTS],
        description: 'Dialect of the expression: unix, quartz or eventbridge; detected when absent',
      },
      to: {
        type: 'string',
        enum: [...DIALECTS],
        description: 'Convert mode: the dialect to write the expression in (required there)',
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
      'Parse and convert modes: the cron expression. Unix: 5 fields (minute hour dayOfMonth month dayOfWeek), 6 fields (second first), or @yearly @annually @monthly @weekly @daily @midnight @hourly; names (JAN, MON), ranges, lists, steps, ?, L and n#k are accepted, H and W are not. Quartz: 6 or 7 fields (see dialect). EventBridge: cron(...) or rate(...)',
    fields:
      'Build mode: JSON object with any of second, minute, hour, dayOfMonth, month, dayOfWeek; each a cron field text, an integer or a list. Unset fields are "*" except minute, which defaults to "0"; second only when given',
    dialect:
      'Parse and convert: unix (Vixie cron: 5 fields, or 6 with seconds first; day of week 0-7 = SUN-SAT, 0 and 7 both Sunday), quartz (second minute hour dayOfMonth month dayOfWeek [year]; day of week 1-7 = SUN-SAT; ? in one day field; L, LW, nW, L-n, nL, n#k; years 1970-2099) or eventbridge (cron(minute hour dayOfMonth month dayOfWeek year) with the Quartz day rules and years 1970-2199, or rate(value minute|minutes|hour|hours|day|days)). Absent: cron(...) and rate(...) are eventbridge, 7 fields with ? in dayOfMonth or dayOfWeek quartz, anything else unix (so 6 fields stay Unix, seconds first)',
    to: 'Convert mode: target dialect, unix, quartz or eventbridge (required). The result carries warnings for what cannot be carried over; a conversion with no faithful result is UNSUPPORTED_OPTION',
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
    {
      path: '/api/cron-expression/convert/',
      methods: ['GET', 'POST'],
      summary: 'Write a cron expression in another dialect (Unix, Quartz, EventBridge), with warnings',
      mode: 'convert',
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
      answer:
        'Yes: with 6 fields the first is seconds (0-59), as in node-cron, and the day of week is 0-7 = SUN-SAT, 0 and 7 both Sunday (Unix). For a Quartz 6-field expression (day of week 1-7 = SUN-SAT) name dialect quartz; 7 fields with ? in a day field are read as Quartz without it.',
    },
    {
      question: 'Which cron dialects are understood?',
      answer:
        'unix (Vixie cron and cron-parser: 5 fields, or 6 with seconds first), quartz (Quartz CronTrigger: seconds, optional year 1970-2099, ? in one day field, L, LW, nW, L-n, nL, n#k, day of week 1-7 = SUN-SAT) and eventbridge (AWS: cron(minute hour dayOfMonth month dayOfWeek year) with the Quartz day rules and years 1970-2199, or rate(5 minutes)). cron(...) and rate(...) are detected, as are 7 fields with ? in a day field (Quartz); anything else, 6-field Quartz included, is Unix unless dialect says otherwise.',
    },
    {
      question: 'How do the dialects handle daylight-saving changes?',
      answer:
        'unix: as Vixie cron documents, a time skipped by spring-forward still runs (shifted by the gap) and a wildcard job runs in both passes of a repeated hour, a fixed time once. quartz: the Quartz CronTrigger documentation says a time that does not occur is skipped and a repeated hour is not fired again (its firings were already made), and the tool does that. eventbridge: EventBridge Scheduler documents that a run at a time that does not exist is skipped and a repeated time runs only once; the tool does the same. EventBridge rules (not Scheduler) always run in UTC: leave timezone at UTC for them. rate() runs at fixed durations from its start, so DST does not move it.',
    },
    {
      question: 'How are expressions converted between dialects?',
      answer:
        'Mode convert with to = unix, quartz or eventbridge. Day of week is renumbered (Unix 0-6 vs 1-7), ? is added or removed, seconds and years are dropped with a warning where the target lacks them, rate() becomes cron only when its period divides an hour or a day evenly. When nothing faithful is possible (W days to Unix, a Unix either-day rule to Quartz, rate(7 minutes)) the answer is UNSUPPORTED_OPTION.',
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
      title: 'Read a Quartz or EventBridge expression',
      description:
        'Send it to /parse/ as is (cron(...), rate(...) and 7 fields with ? are detected) or with `dialect` set to quartz or eventbridge (needed for 6-field Quartz).',
    },
    {
      title: 'Convert between dialects',
      description:
        'Call /api/cron-expression/convert/ with `expression` and `to` (generic: `a`, `b`, mode convert); read `warnings`.',
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
  jsonText: ['fields'],
});
