/**
 * The shape of a tool module (`tools/<id>/tool.ts`). A tool describes itself here;
 * the registry, the routes, the catalogue and the OpenAPI document are derived from
 * these definitions. The implementation lives beside it in `run.ts`, which only the
 * worker imports. This file holds types and a pure helper, so both sides may import it.
 */

export type RiskClass = 'L' | 'M' | 'H';
export type Category = 'devtools' | 'ai';
export type Slot = 'a' | 'b' | 'c';
export type HttpMethod = 'GET' | 'POST';

/** Default runtime policy of a tool; operators override any field (see src/config/policy.ts). */
export interface ToolPolicyDefaults {
  limit: number;
  burst: number;
  windowSec: number;
  inputMaxBytes: number;
  timeoutMs: number;
}

/** Named fields on the dedicated surface for the generic `a`, `b`, `c` (null: unused). */
export type FieldMap = Record<Slot, string | null>;

export interface ToolEndpoint {
  /** Full path, with a trailing slash, e.g. `/api/format-detective/detect/`. */
  path: string;
  methods: HttpMethod[];
  summary: string;
  /** Set when the path implies the mode (two-path tools). */
  mode?: string;
  /** Modes accepted on this endpoint through the mode field (first = default); default: all. */
  modes?: string[];
}

export interface ToolDefinition {
  id: string;
  name: string;
  description: string;
  category: Category;
  icon: string;
  keywords: string[];
  tags: string[];
  riskClass: RiskClass;
  policy: ToolPolicyDefaults;
  /** The modes of the tool; the first is the default. */
  modes: string[];
  /** Name of the mode field on the dedicated surface; null when the path implies it. */
  modeField: string | null;
  fields: FieldMap;
  /** Per-mode changes to `fields` (e.g. cron `build` takes `fields` instead of `expression`). */
  fieldsByMode?: Record<string, Partial<FieldMap>>;
  /**
   * JSON Schema (draft-07) of the named input, without the mode field. Validation
   * coerces types (query strings and generic `a`/`b`/`c` arrive as strings), so a
   * numeric field is declared as `integer` and "256" becomes 256.
   * An `enum` failure is reported as UNSUPPORTED_OPTION.
   */
  input: JsonSchema;
  /** Field name → what it means, for agents. */
  semanticFields: Record<string, string>;
  endpoints: ToolEndpoint[];
  faqs: { question: string; answer: string }[];
  howTo: { title: string; description: string }[];
  /** ids of related tools. */
  relatedTools: string[];
  /** Present on some tools only (the descriptor says so; docs/api.md). */
  hasApi?: boolean;
  /** Result fields that depend on the clock (e.g. cron's next runs); examples compare the rest. */
  volatileResultFields?: string[];
}

export type JsonSchema = { [key: string]: unknown };

/** Identity helper that gives tool modules type checking. */
export function defineTool(def: ToolDefinition): ToolDefinition {
  return def;
}

/** Named input as the worker receives it: already validated and coerced. */
export type ToolInput = Record<string, unknown>;

/** Signature of the default export of `tools/<id>/run.ts`. */
export type ToolRun = (input: ToolInput, mode: string) => unknown | Promise<unknown>;
