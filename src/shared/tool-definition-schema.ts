import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import {
  FAQ_SCHEMA,
  HOW_TO_SCHEMA,
  type JsonSchema,
  RISK_CLASSES,
  TOOL_SPEC_SCHEMA,
} from './tool-def-schema.js';

/**
 * What a tool's author writes (docs/writing-a-tool.md): the default export of `tools/<id>/tool.ts`
 * (the **definition**) and, optionally, of `page.ts` (the **page content**). Five fields are
 * required, three more are common (policy, modes, deterministic), the rest is rare; the
 * registry derives the **spec** every door reads from them (src/shared/expand-tool.ts).
 * Declared once here: the registry checks every module with these schemas (ajv) and the types
 * are derived from them. Only the API process loads the schemas; tools import the types.
 */

const text = { type: 'string', minLength: 1 } as const;
const texts = { type: 'array', items: text } as const;
const positive = { type: 'integer', minimum: 1 } as const;
const fieldName = { type: 'string', pattern: '^[a-zA-Z][a-zA-Z0-9]*$' } as const;
const spec = TOOL_SPEC_SCHEMA.properties;

/** Named fields carried by the generic `a`, `b`, `c`; a slot left out is unused. */
const Slots = {
  type: 'object',
  properties: { a: fieldName, b: fieldName, c: fieldName },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** What differs in one mode; `{}` when nothing does. */
const ModeSpec = {
  type: 'object',
  properties: {
    /** Slots this mode maps differently (cron `build` takes `fields` in `a`). */
    slots: Slots,
    /** Options (named fields no slot carries) that belong to this mode only (docs/api.md, "Options"). */
    options: { type: 'array', items: fieldName, minItems: 1, uniqueItems: true },
    /** The mode has its own endpoint, `/api/<id>/<path>/`, which implies it. */
    path: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' },
    /** The summary of that endpoint (default: `<title>: <mode>`). */
    summary: text,
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The modes, in one shape: the first is the default. */
const Modes = {
  type: 'object',
  required: ['each'],
  properties: {
    /** The mode field on the dedicated surface (default `mode`); null when every mode has its own path. */
    field: { anyOf: [fieldName, { type: 'null' }] },
    /**
     * What the mode field means, for agents and the OpenAPI parameter (default: the modes
     * listed); with `field: null`, what the generic runtime's `mode` means.
     */
    description: text,
    /** Each mode by name, in order, with what differs in it. */
    each: {
      type: 'object',
      minProperties: 1,
      // Not an integer: JavaScript orders integer keys first, and the first mode is the default.
      propertyNames: { pattern: '^(?![0-9]+$)[A-Za-z0-9][A-Za-z0-9._-]*$' },
      patternProperties: { '^.*$': ModeSpec },
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The policy where it differs from the defaults (src/shared/expand-tool.ts, DEFAULT_POLICY). */
const PolicyChanges = {
  type: 'object',
  properties: {
    limit: positive,
    burst: { type: 'integer', minimum: 0 },
    windowSec: positive,
    inputMaxBytes: positive,
    timeoutMs: positive,
    /** L, M or H: what a run can cost the host (default L). */
    riskClass: { enum: RISK_CLASSES },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

export const TOOL_DEFINITION_SCHEMA = {
  type: 'object',
  required: ['id', 'title', 'description', 'input', 'output'],
  properties: {
    id: spec.id,
    /** The tool's name on its page, in the catalogue and as the MCP tool's title. */
    title: text,
    /** One line (or a few sentences): what it does. */
    description: text,
    /**
     * JSON Schema (draft-07) of the named input, without the mode field; every property
     * describes itself (`description`): that text is what agents and the OpenAPI document read.
     */
    input: spec.input,
    /** JSON Schema of the result (an MCP client reads it as the tool's outputSchema). */
    output: spec.output,
    policy: PolicyChanges,
    modes: Modes,
    /** The generic slots (default: the input schema's first three required fields). */
    slots: Slots,
    /** Overrides the derived endpoints (`/api/<id>/`, and one per mode with a `path`). */
    endpoints: spec.endpoints,
    /** Whether results may be cached (default false): see the spec's `deterministic`. */
    deterministic: spec.deterministic,
    volatileResultFields: spec.volatileResultFields,
    jsonText: spec.jsonText,
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The page content of a tool (`page.ts`, optional): what its page and the catalogue show. */
export const TOOL_PAGE_SCHEMA = {
  type: 'object',
  properties: {
    category: spec.category,
    icon: text,
    keywords: texts,
    tags: texts,
    faqs: { type: 'array', items: FAQ_SCHEMA },
    howTo: { type: 'array', items: HOW_TO_SCHEMA },
    /** ids of related tools. */
    relatedTools: texts,
    hasApi: { type: 'boolean' },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** A definition; `input` and `output` are schemas themselves, typed as JsonSchema. */
export type ToolDefinition = Omit<FromSchema<typeof TOOL_DEFINITION_SCHEMA>, 'input' | 'output' | 'modes'> & {
  input: JsonSchema;
  output: JsonSchema;
  modes?: ToolModes;
};
export type ToolModes = Omit<FromSchema<typeof Modes>, 'each'> & { each: Record<string, ToolModeSpec> };
export type ToolModeSpec = FromSchema<typeof ModeSpec>;
export type ToolPage = FromSchema<typeof TOOL_PAGE_SCHEMA>;
export type ToolPolicyChanges = FromSchema<typeof PolicyChanges>;
