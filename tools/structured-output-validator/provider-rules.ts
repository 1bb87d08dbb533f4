/**
 * What each provider accepts in a tool / structured-output schema, as documented (read
 * 2026-11-26; sources in SKILL.md, "Provider dialects"). Data only: the *-lint.ts modules apply it.
 */

import { PROVIDER_OPTIONS } from './tool.js';

export const PROVIDERS = PROVIDER_OPTIONS;
export type Provider = (typeof PROVIDERS)[number];

/**
 * OpenAI Structured Outputs, "Supported schemas" (platform.openai.com/docs/guides/structured-outputs,
 * as captured in Feb 2026) and openai-node's `toStrictJsonSchema` (src/lib/transform.ts, v7.57):
 * keywords the strict mode refuses. The docs name allOf, not, dependentRequired, dependentSchemas,
 * if/then/else; openai-node refuses the rest of this list too (it cannot represent them).
 */
export const OPENAI_UNSUPPORTED = [
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'oneOf',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'minProperties',
  'maxProperties',
  'prefixItems',
  'additionalItems',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
  '$anchor',
  '$dynamicAnchor',
  '$dynamicRef',
  '$recursiveAnchor',
  '$recursiveRef',
] as const;

/** OpenAI's supported string formats. */
export const OPENAI_FORMATS = [
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
] as const;

/** OpenAI's size limits for one strict schema. */
export const OPENAI_LIMITS = {
  /** Object properties in the whole schema. */
  properties: 5000,
  /** Levels of nested objects (the root object is level 1). */
  nesting: 10,
  /** Characters of all property names, definition names, enum values and const values. */
  stringLength: 120_000,
  /** Enum values in the whole schema. */
  enumValues: 1000,
  /** A string enum with more values than this must stay within `largeEnumChars`. */
  largeEnum: 250,
  largeEnumChars: 15_000,
} as const;

export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/**
 * Gemini function declarations: `parameters` is a Schema, "a select subset of an OpenAPI 3.0
 * schema object" (ai.google.dev/api/caching#Schema; @google/genai `types.Schema`). Any other
 * keyword is refused (or, worse, silently dropped).
 */
export const GEMINI_KEYWORDS = [
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
] as const;

/** Gemini's `Type` enum (written upper case in the API; lower case is accepted). */
export const GEMINI_TYPES = ['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL'] as const;

/**
 * FunctionDeclaration.name: "must start with a letter or an underscore; a-z, A-Z, 0-9,
 * underscores, dots, colons and dashes, at most 64" (Gemini API / Vertex AI reference).
 */
export const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

/**
 * Vertex AI reference: "Parameter names must start with a letter or an underscore and must only
 * contain chars a-z, A-Z, 0-9, or underscores with a maximum length of 64."
 */
export const GEMINI_PARAMETER_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,63}$/;

/** Anthropic tool names (Messages API `tools[].name`). */
export const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Anthropic strict tool use / structured outputs, "JSON Schema limitations"
 * (platform.claude.com/docs/en/build-with-claude/structured-outputs): constraints it does not support.
 */
export const ANTHROPIC_STRICT_UNSUPPORTED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'minProperties',
  'maxProperties',
] as const;

export const ANTHROPIC_FORMATS = [
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
] as const;

/**
 * MCP tool names (specification 2025-11-25, "Tool names"): SHOULD be 1 to 128 characters of
 * A-Z, a-z, 0-9, underscore, hyphen and dot.
 */
export const MCP_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
