/**
 * What a tool module (`tools/<id>/tool.ts`) and its `run.ts` use, through `#tool-kit`
 * (src/tool-kit/index.ts): the definition's types
 * (declared once, with their schema, in src/shared/tool-def-schema.ts, imported here as
 * types only so that a worker never loads the schema library) and the helpers below.
 */
import type { FieldMap, ToolSpec } from './tool-def-schema.js';
import type { ToolDefinition, ToolPage } from './tool-definition-schema.js';

export type {
  Category,
  FieldMap,
  HttpMethod,
  JsonSchema,
  RiskClass,
  Slot,
  ToolEndpoint,
  ToolPolicyDefaults,
  ToolSpec,
} from './tool-def-schema.js';
export type {
  ToolDefinition,
  ToolModeSpec,
  ToolModes,
  ToolPage,
  ToolPolicyChanges,
} from './tool-definition-schema.js';

/** Identity helper that gives a tool's definition (`tool.ts`) type checking. */
export function defineTool(def: ToolDefinition): ToolDefinition {
  return def;
}

/** Identity helper that gives a tool's page content (`page.ts`) type checking. */
export function definePage(page: ToolPage): ToolPage {
  return page;
}

/** The slot map of one mode: the tool's `fields` with that mode's `fieldsByMode` over them. */
export function fieldsFor(def: ToolSpec, mode: string): FieldMap {
  return { ...def.fields, ...def.fieldsByMode?.[mode] };
}

/**
 * Whether the input field `name` takes both a string and a JSON value (an object or an
 * array): a structured value a client may send as the value or as its JSON text.
 */
export function takesJsonOrText(def: ToolSpec, name: string): boolean {
  const type = (def.input.properties as Record<string, { type?: unknown }> | undefined)?.[name]?.type;
  return (
    Array.isArray(type) && type.includes('string') && (type.includes('object') || type.includes('array'))
  );
}

/** Named input as the worker receives it: already validated and coerced. */
export type ToolInput = Record<string, unknown>;

/** Signature of the default export of `tools/<id>/run.ts`. */
export type ToolRun = (input: ToolInput, mode: string) => unknown | Promise<unknown>;
/**
 * A run module's optional `prepare` export: the set-up a run of this input needs that is not
 * the run's own work (a tokenizer's tables for its encoding). The worker awaits it before the
 * run starts, so, like loading the module, it never counts against the run's deadline
 * (docs/architecture.md, "Set-up outside the deadline"). It must be bounded whatever the input: it
 * may pick among fixed tables, never do work that grows with the input.
 */
export type ToolPrepare = (input: ToolInput, mode: string) => void | Promise<void>;
