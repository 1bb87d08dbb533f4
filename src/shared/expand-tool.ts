import type {
  FieldMap,
  JsonSchema,
  Slot,
  ToolEndpoint,
  ToolPolicyDefaults,
  ToolSpec,
} from './tool-def-schema.js';
import type { ToolDefinition, ToolPage } from './tool-definition-schema.js';

/** The policy of a definition that declares none (each field: where it declares others). */
export const DEFAULT_POLICY: ToolPolicyDefaults = {
  limit: 60,
  burst: 20,
  windowSec: 60,
  inputMaxBytes: 65536,
  timeoutMs: 2000,
};
/** The one mode of a tool that declares no `modes`. */
export const DEFAULT_MODE = 'default';
const SLOTS: readonly Slot[] = ['a', 'b', 'c'];

/**
 * A definition (and its page content) → the spec every door reads: what the author did not
 * write is derived here, once, by rules docs/writing-a-tool.md states. Pure: the registry
 * calls it at boot, tests call it on a tool's own module. What a schema cannot check (a slot
 * naming a field the input lacks, a mode-less path) the registry's cross-checks refuse after.
 */
export function expandTool(def: ToolDefinition, page: ToolPage = {}): ToolSpec {
  const { policy = {}, modes, slots, endpoints } = def;
  const { riskClass = 'L', ...numbers } = policy;
  const modeNames = modes ? Object.keys(modes.each) : [DEFAULT_MODE];
  const modeField = modes?.field === undefined ? 'mode' : modes.field;
  const properties = (def.input.properties ?? {}) as Record<string, JsonSchema>;
  const semanticFields: Record<string, string> = {};
  for (const [name, schema] of Object.entries(properties))
    if (typeof schema.description === 'string') semanticFields[name] = schema.description;
  // With no mode field (every mode has its path), the generic runtime's `mode` still takes one.
  const modeKey = modeField ?? (modes?.description === undefined ? null : 'mode');
  if (modeKey !== null) semanticFields[modeKey] = modes?.description ?? listModes(modeNames);
  const spec: ToolSpec = {
    id: def.id,
    name: def.title,
    description: def.description,
    category: page.category ?? 'devtools',
    icon: page.icon ?? 'wrench',
    keywords: page.keywords ?? [],
    tags: page.tags ?? [],
    riskClass,
    ...(page.hasApi === undefined ? {} : { hasApi: page.hasApi }),
    policy: { ...DEFAULT_POLICY, ...numbers },
    modes: modeNames,
    modeField,
    fields: slotMap(slots ?? requiredSlots(def.input)),
    input: def.input,
    output: def.output,
    semanticFields,
    endpoints: endpoints ?? derivedEndpoints(def, modeNames, modeField !== null),
    faqs: page.faqs ?? [],
    howTo: page.howTo ?? [],
    relatedTools: page.relatedTools ?? [],
    deterministic: def.deterministic ?? false,
  };
  const fieldsByMode: Record<string, Partial<FieldMap>> = {};
  const optionModes: Record<string, string[]> = {};
  for (const [mode, each] of Object.entries(modes?.each ?? {})) {
    if (each.slots) fieldsByMode[mode] = each.slots;
    for (const option of each.options ?? []) optionModes[option] = [...(optionModes[option] ?? []), mode];
  }
  if (Object.keys(fieldsByMode).length > 0) spec.fieldsByMode = fieldsByMode;
  if (Object.keys(optionModes).length > 0) spec.optionModes = optionModes;
  if (def.volatileResultFields) spec.volatileResultFields = def.volatileResultFields;
  if (def.jsonText) spec.jsonText = def.jsonText;
  return spec;
}

/** "a (default), b or c". */
function listModes(names: readonly string[]): string {
  const [first, ...rest] = names;
  const head = `${first} (default)`;
  if (rest.length === 0) return head;
  return `${[head, ...rest.slice(0, -1)].join(', ')} or ${rest.at(-1)}`;
}

/** The input schema's first three required fields, in order, on a, b and c. */
function requiredSlots(input: JsonSchema): Partial<FieldMap> {
  const required = Array.isArray(input.required) ? (input.required as string[]) : [];
  return Object.fromEntries(required.slice(0, SLOTS.length).map((name, i) => [SLOTS[i], name]));
}

function slotMap(slots: Partial<FieldMap>): FieldMap {
  return { a: slots.a ?? null, b: slots.b ?? null, c: slots.c ?? null };
}

/** `/api/<id>/` when the tool has a mode field, then one endpoint per mode with a `path`. */
function derivedEndpoints(
  def: ToolDefinition,
  modes: readonly string[],
  hasModeField: boolean,
): ToolEndpoint[] {
  const out: ToolEndpoint[] = [];
  const methods: ToolEndpoint['methods'] = ['GET', 'POST'];
  if (hasModeField) out.push({ path: `/api/${def.id}/`, methods, summary: def.title });
  for (const mode of modes) {
    const each = def.modes?.each[mode];
    if (each?.path === undefined) continue;
    out.push({
      path: `/api/${def.id}/${each.path}/`,
      methods,
      summary: each.summary ?? `${def.title}: ${mode}`,
      mode,
    });
  }
  return out;
}
