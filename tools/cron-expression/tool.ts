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
  title: 'Cron Expression Parser & Builder',
  description:
    'Explains a cron expression (Unix, Quartz or AWS EventBridge) in plain English and lists its next run times in any IANA time zone (DST-aware), builds an expression from its fields, or converts it between dialects.',
  input: {
    type: 'object',
    properties: {
      expression: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_EXPRESSION_CHARS,
        description:
          'Parse and convert modes: the cron expression. Unix: 5 fields (minute hour dayOfMonth month dayOfWeek), 6 fields (second first), or @yearly @annually @monthly @weekly @daily @midnight @hourly; names (JAN, MON), ranges, lists, steps, ?, L and n#k are accepted, H and W are not. Quartz: 6 or 7 fields (see dialect). EventBridge: cron(...) or rate(...)',
      },
      dialect: {
        type: 'string',
        enum: [...DIALECTS],
        description:
          'Parse and convert: unix (Vixie cron: 5 fields, or 6 with seconds first; day of week 0-7 = SUN-SAT, 0 and 7 both Sunday), quartz (second minute hour dayOfMonth month dayOfWeek [year]; day of week 1-7 = SUN-SAT; ? in one day field; L, LW, nW, L-n, nL, n#k; years 1970-2099) or eventbridge (cron(minute hour dayOfMonth month dayOfWeek year) with the Quartz day rules and years 1970-2199, or rate(value minute|minutes|hour|hours|day|days)). Absent: cron(...) and rate(...) are eventbridge, 7 fields with ? in dayOfMonth or dayOfWeek quartz, anything else unix (so 6 fields stay Unix, seconds first)',
      },
      to: {
        type: 'string',
        enum: [...DIALECTS],
        description:
          'Convert mode: target dialect, unix, quartz or eventbridge (required). The result carries warnings for what cannot be carried over; a conversion with no faithful result is UNSUPPORTED_OPTION',
      },
      fields: {
        type: ['object', 'string'],
        maxLength: MAX_FIELDS_CHARS,
        description:
          'Build mode: JSON object with any of second, minute, hour, dayOfMonth, month, dayOfWeek; each a cron field text, an integer or a list. Unset fields are "*" except minute, which defaults to "0"; second only when given',
      },
      timezone: {
        type: 'string',
        maxLength: MAX_TIMEZONE_CHARS,
        default: DEFAULT_TIMEZONE,
        description:
          'IANA time zone (default UTC) in which nextRuns are computed and written, with their UTC offset',
      },
      count: {
        type: 'integer',
        minimum: 0,
        maximum: MAX_COUNT,
        default: DEFAULT_COUNT,
        description: `How many next runs to list, 0 to ${MAX_COUNT} (default ${DEFAULT_COUNT})`,
      },
      from: {
        type: 'string',
        format: 'date-time',
        maxLength: 40,
        description:
          'ISO 8601 instant after which nextRuns start (exclusive); default the current time. Set it for reproducible results',
      },
    },
    additionalProperties: false,
  },
  output: OUTPUT,
  policy: { limit: 120, burst: 30, inputMaxBytes: 4096, timeoutMs: 1000 },
  modes: {
    field: null,
    each: {
      parse: {
        options: ['dialect'],
        path: 'parse',
        summary: 'Explain a cron expression and list its next runs',
      },
      build: { slots: { a: 'fields' }, path: 'build', summary: 'Build a cron expression from its fields' },
      convert: {
        slots: { b: 'to' },
        options: ['dialect', 'timezone'],
        path: 'convert',
        summary: 'Write a cron expression in another dialect (Unix, Quartz, EventBridge), with warnings',
      },
    },
  },
  slots: { a: 'expression', b: 'timezone', c: 'count' },
  // `from` defaults to the clock: the same input is the same answer only with `from` given.
  deterministic: { whenGiven: ['from'] },
  // `from` defaults to now, so the next runs move with the clock.
  volatileResultFields: ['from', 'nextRuns'],
  jsonText: ['fields'],
});
