import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The shape of a tool module (`tools/<id>/tool.ts`), declared once: the schema below is what
 * the registry checks every module with (ajv), and the types are derived from it. A tool
 * describes itself here; the registry, the routes, the catalogue and the OpenAPI document
 * are derived from these definitions. The schemas are plain JSON Schema objects (`as const`);
 * json-schema-to-ts derives the types from them at compile time (`import type`: no schema
 * library is loaded at run time). Only the API process imports this module: tools and workers
 * import src/shared/tool-def.ts, which takes these types only.
 */

const text = { type: 'string', minLength: 1 } as const;
const texts = { type: 'array', items: text } as const;
const positive = { type: 'integer', minimum: 1 } as const;
/** A named field of the dedicated surface, or null where the slot is unused. */
const slotName = {
  anyOf: [{ type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }, { type: 'null' }],
} as const;

export const RISK_CLASSES = ['L', 'M', 'H'] as const;
export const CATEGORIES = ['devtools', 'ai'] as const;
export const HTTP_METHODS = ['GET', 'POST'] as const;

export const FAQ_SCHEMA = {
  type: 'object',
  required: ['question', 'answer'],
  properties: { question: text, answer: text },
  additionalProperties: false,
} as const satisfies JSONSchema;
export const HOW_TO_SCHEMA = {
  type: 'object',
  required: ['title', 'description'],
  properties: { title: text, description: text },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** Default policy of a tool; operators override any field (see src/config/policy.ts). */
const PolicyDefaults = {
  type: 'object',
  required: ['limit', 'burst', 'windowSec', 'inputMaxBytes', 'timeoutMs'],
  properties: {
    limit: positive,
    burst: { type: 'integer', minimum: 0 },
    windowSec: positive,
    inputMaxBytes: positive,
    timeoutMs: positive,
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

const slotProperties = { a: slotName, b: slotName, c: slotName } as const;
/** Named fields on the dedicated surface for the generic `a`, `b`, `c` (null: unused). */
const Fields = {
  type: 'object',
  required: ['a', 'b', 'c'],
  properties: slotProperties,
  additionalProperties: false,
} as const satisfies JSONSchema;

const Endpoint = {
  type: 'object',
  required: ['path', 'methods', 'summary'],
  properties: {
    /** Full path, with a trailing slash, e.g. `/api/format-detective/detect/`. */
    path: { type: 'string', pattern: '^/api/[a-z0-9-]+/([a-z0-9-]+/)?$' },
    methods: { type: 'array', items: { enum: HTTP_METHODS }, minItems: 1, uniqueItems: true },
    summary: text,
    /** Set when the path implies the mode (two-path tools). */
    mode: text,
    /** Modes accepted on this endpoint through the mode field (first = default); default: all. */
    modes: { type: 'array', items: text, minItems: 1 },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

export type JsonSchema = { [key: string]: unknown };

export const TOOL_SPEC_SCHEMA = {
  type: 'object',
  required: [
    'id',
    'name',
    'description',
    'category',
    'icon',
    'keywords',
    'tags',
    'riskClass',
    'policy',
    'modes',
    'modeField',
    'fields',
    'input',
    'output',
    'semanticFields',
    'endpoints',
    'faqs',
    'howTo',
    'relatedTools',
    'deterministic',
  ],
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' },
    name: text,
    description: text,
    category: { enum: CATEGORIES },
    icon: text,
    keywords: texts,
    tags: texts,
    riskClass: { enum: RISK_CLASSES },
    /** Present on some tools only: the descriptor says so. */
    hasApi: { type: 'boolean' },
    policy: PolicyDefaults,
    /** The modes of the tool; the first is the default. */
    modes: { type: 'array', items: text, minItems: 1, uniqueItems: true },
    /** Name of the mode field on the dedicated surface; null when the path implies it. */
    modeField: slotName,
    fields: Fields,
    /** Per-mode changes to `fields` (e.g. cron `build` takes `fields` instead of `expression`). */
    fieldsByMode: {
      type: 'object',
      patternProperties: { '^.*$': { type: 'object', properties: slotProperties } },
    },
    /**
     * The modes an option (a named field no slot carries, docs/api.md "Options") belongs to,
     * where not all: the page shows it under those modes only and the agent guide says so
     * (cron's `dialect`: parse and convert). A field a slot carries in some modes may be an
     * option in others, where a mode's slot map displaces it (cron's `timezone` under
     * convert): listed here, it belongs to those modes as an option too. The tool refuses an
     * option elsewhere itself (test/option-modes.test.ts checks both against real runs).
     */
    optionModes: {
      type: 'object',
      patternProperties: { '^.*$': { type: 'array', items: text, minItems: 1, uniqueItems: true } },
    },
    /**
     * JSON Schema (draft-07) of the named input, without the mode field. Validation coerces
     * types (query strings and generic `a`/`b`/`c` arrive as strings), so a numeric field is
     * declared as `integer` and "256" becomes 256. An `enum` failure is UNSUPPORTED_OPTION.
     * Typed as JsonSchema (see ToolSpec below).
     */
    input: {
      type: 'object',
      required: ['type', 'properties'],
      properties: { type: { const: 'object' } },
    },
    /**
     * JSON Schema of the tool's result (what `structuredContent` of an MCP call conforms to);
     * test/output-schemas.test.ts checks every example's real result against it. Typed as
     * JsonSchema (see ToolSpec below).
     */
    output: { type: 'object', required: ['type'] },
    /** Field name → what it means, for agents. */
    semanticFields: { type: 'object', patternProperties: { '^.*$': text }, minProperties: 1 },
    endpoints: { type: 'array', items: Endpoint, minItems: 1 },
    faqs: { type: 'array', items: FAQ_SCHEMA },
    howTo: { type: 'array', items: HOW_TO_SCHEMA },
    /** ids of related tools. */
    relatedTools: texts,
    /**
     * Whether the result is a function of the mode and the input alone, so it may be cached
     * and carries an ETag (docs/api.md, "Result cache and ETags"): true, false, or
     * `{whenGiven: [fields]}` when it is only with those fields given (cron's `from`
     * defaults to the clock). A tool that is not is never cached, whatever the policy says.
     */
    deterministic: {
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          required: ['whenGiven'],
          properties: { whenGiven: { type: 'array', items: text, minItems: 1 } },
          additionalProperties: false,
        },
      ],
    },
    /** Result fields that depend on the clock (e.g. cron's next runs); examples compare the rest. */
    volatileResultFields: texts,
    /**
     * Named fields that take a JSON value or its JSON text alike: a string is parsed as JSON and
     * answers what the value answers. The content key counts a value as its JSON text, so both
     * forms share one cache entry and ETag (test/json-text.test.ts runs every case both ways).
     * A tool whose answer tells the forms apart (structured-diff names the format it read) lists
     * none.
     */
    jsonText: { type: 'array', items: text, uniqueItems: true },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/**
 * A tool definition, derived from the schema above with three fields typed by hand: `input`
 * and `output` are schemas themselves (the schema only checks their outline; the code reads
 * them as JsonSchema), and a `fieldsByMode` entry is a partial FieldMap (its schema does not
 * close the object, which would give it an index signature of unknown).
 */
export type ToolSpec = Omit<
  FromSchema<typeof TOOL_SPEC_SCHEMA>,
  'input' | 'output' | 'fieldsByMode' | 'optionModes'
> & {
  fieldsByMode?: Record<string, Partial<FieldMap>>;
  optionModes?: Record<string, readonly string[]>;
  input: JsonSchema;
  output: JsonSchema;
};
export type ToolPolicyDefaults = FromSchema<typeof PolicyDefaults>;
export type ToolEndpoint = FromSchema<typeof Endpoint>;
export type FieldMap = FromSchema<typeof Fields>;
export type RiskClass = (typeof RISK_CLASSES)[number];
export type Category = (typeof CATEGORIES)[number];
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type Slot = keyof FieldMap;
