import { type Static, Type } from 'typebox';

/**
 * The shape of a tool module (`tools/<id>/tool.ts`), declared once: the schema below is what
 * the registry checks every module with (ajv), and the types are derived from it. A tool
 * describes itself here; the registry, the routes, the catalogue and the OpenAPI document
 * are derived from these definitions. Only the API process imports this module: tools and
 * workers import src/shared/tool-def.ts, which takes these types without loading TypeBox
 * (its import costs ~250 ms, which a worker's first run would pay).
 */

const text = Type.String({ minLength: 1 });
const texts = Type.Array(text);
const positive = Type.Integer({ minimum: 1 });
/** A named field of the dedicated surface, or null where the slot is unused. */
const slotName = Type.Union([Type.String({ pattern: '^[a-zA-Z][a-zA-Z0-9]*$' }), Type.Null()]);

export const RISK_CLASSES = ['L', 'M', 'H'] as const;
export const CATEGORIES = ['devtools', 'ai'] as const;
export const HTTP_METHODS = ['GET', 'POST'] as const;

export const FAQ_SCHEMA = Type.Object({ question: text, answer: text }, { additionalProperties: false });
export const HOW_TO_SCHEMA = Type.Object({ title: text, description: text }, { additionalProperties: false });

/** Default runtime policy of a tool; operators override any field (see src/config/policy.ts). */
const PolicyDefaults = Type.Object(
  {
    limit: positive,
    burst: Type.Integer({ minimum: 0 }),
    windowSec: positive,
    inputMaxBytes: positive,
    timeoutMs: positive,
  },
  { additionalProperties: false },
);

/** Named fields on the dedicated surface for the generic `a`, `b`, `c` (null: unused). */
const Fields = Type.Object({ a: slotName, b: slotName, c: slotName }, { additionalProperties: false });

const Endpoint = Type.Object(
  {
    /** Full path, with a trailing slash, e.g. `/api/format-detective/detect/`. */
    path: Type.String({ pattern: '^/api/[a-z0-9-]+/([a-z0-9-]+/)?$' }),
    methods: Type.Array(Type.Enum(HTTP_METHODS), { minItems: 1, uniqueItems: true }),
    summary: text,
    /** Set when the path implies the mode (two-path tools). */
    mode: Type.Optional(text),
    /** Modes accepted on this endpoint through the mode field (first = default); default: all. */
    modes: Type.Optional(Type.Array(text, { minItems: 1 })),
  },
  { additionalProperties: false },
);

export type JsonSchema = { [key: string]: unknown };

export const TOOL_DEFINITION_SCHEMA = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    name: text,
    description: text,
    category: Type.Enum(CATEGORIES),
    icon: text,
    keywords: texts,
    tags: texts,
    riskClass: Type.Enum(RISK_CLASSES),
    /** Present on some tools only: the descriptor says so. */
    hasApi: Type.Optional(Type.Boolean()),
    policy: PolicyDefaults,
    /** The modes of the tool; the first is the default. */
    modes: Type.Array(text, { minItems: 1, uniqueItems: true }),
    /** Name of the mode field on the dedicated surface; null when the path implies it. */
    modeField: slotName,
    fields: Fields,
    /** Per-mode changes to `fields` (e.g. cron `build` takes `fields` instead of `expression`). */
    fieldsByMode: Type.Optional(Type.Record(Type.String(), Type.Partial(Fields))),
    /**
     * JSON Schema (draft-07) of the named input, without the mode field. Validation coerces
     * types (query strings and generic `a`/`b`/`c` arrive as strings), so a numeric field is
     * declared as `integer` and "256" becomes 256. An `enum` failure is UNSUPPORTED_OPTION.
     */
    input: Type.Unsafe<JsonSchema>({
      type: 'object',
      required: ['type', 'properties'],
      properties: { type: { const: 'object' } },
    }),
    /**
     * JSON Schema of the tool's result (what `structuredContent` of an MCP call conforms to);
     * test/output-schemas.test.ts checks every example's real result against it.
     */
    output: Type.Unsafe<JsonSchema>({ type: 'object', required: ['type'] }),
    /** Field name → what it means, for agents. */
    semanticFields: Type.Record(Type.String(), text, { minProperties: 1 }),
    endpoints: Type.Array(Endpoint, { minItems: 1 }),
    faqs: Type.Array(FAQ_SCHEMA),
    howTo: Type.Array(HOW_TO_SCHEMA),
    /** ids of related tools. */
    relatedTools: texts,
    /** Result fields that depend on the clock (e.g. cron's next runs); examples compare the rest. */
    volatileResultFields: Type.Optional(texts),
  },
  { additionalProperties: false },
);

export type ToolDefinition = Static<typeof TOOL_DEFINITION_SCHEMA>;
export type ToolPolicyDefaults = Static<typeof PolicyDefaults>;
export type ToolEndpoint = Static<typeof Endpoint>;
export type FieldMap = Static<typeof Fields>;
export type RiskClass = (typeof RISK_CLASSES)[number];
export type Category = (typeof CATEGORIES)[number];
export type HttpMethod = (typeof HTTP_METHODS)[number];
export type Slot = keyof FieldMap;
