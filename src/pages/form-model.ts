import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldsFor, type Slot, type ToolEndpoint, type ToolSpec } from '../shared/tool-def.js';

/** One named field of a dedicated endpoint, as the try-it form shows it. */
export interface FormField {
  name: string;
  kind: 'select' | 'number' | 'text' | 'textarea';
  /** select: the enumerated values; an optional field without default gets '' first. */
  options: string[];
  required: boolean;
  /** Prefilled value: from the tool's basic example, else the schema default. */
  value: string;
  min: number | undefined;
  max: number | undefined;
  maxLength: number | undefined;
  hint: string;
  /** Modes the field applies to (the form hides it under the others). */
  modes: string[];
}

export interface TryIt {
  /** `name` of the mode select: the tool's mode field, or null when the path implies the mode. */
  modeName: string | null;
  modes: string[];
  mode: string;
  /** Mode → the dedicated endpoint that runs it; `fixed`: its path implies the mode. */
  endpoints: Record<string, { path: string; fixed: boolean }>;
  fields: FormField[];
  /** The prefilled values by field name (also used for the curl lines). */
  example: Record<string, string>;
}

/** A single line is enough up to this length; longer or JSON-valued fields get a textarea. */
const SINGLE_LINE_MAX = 32768;

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  description?: string;
}

/** The endpoint that runs `mode`: the one whose path implies it, else one that accepts it. */
export function endpointFor(def: ToolSpec, mode: string): ToolEndpoint {
  return (
    def.endpoints.find((ep) => ep.mode === mode) ??
    def.endpoints.find((ep) => !ep.mode && (ep.modes ?? def.modes).includes(mode)) ??
    def.endpoints[0]!
  );
}

/**
 * The tool's basic example (`examples/basic.json`, generic a/b/c/mode) as named fields,
 * so every form opens with an input that works. Missing or unreadable: no example.
 */
export function readExample(
  def: ToolSpec,
  docsDir: string,
): { mode: string; fields: Record<string, string> } {
  try {
    const parsed = JSON.parse(readFileSync(join(docsDir, 'examples', 'basic.json'), 'utf8')) as {
      input?: Record<string, unknown>;
    };
    const input = parsed.input ?? {};
    const mode = def.modes.find((m) => m === input.mode) ?? def.modes[0]!;
    const names = fieldsFor(def, mode);
    const fields: Record<string, string> = {};
    for (const slot of ['a', 'b', 'c'] as Slot[]) {
      const name = names[slot];
      const value = input[slot];
      if (name && value !== undefined)
        fields[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return { mode, fields };
  } catch {
    return { mode: def.modes[0]!, fields: {} };
  }
}

export function tryItModel(def: ToolSpec, example: { mode: string; fields: Record<string, string> }): TryIt {
  const properties = (def.input.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((def.input.required as string[] | undefined) ?? []);
  const ownPath = new Set(def.endpoints.flatMap((ep) => (ep.mode ? [ep.mode] : [])));
  const fields = Object.entries(properties).map(([name, schema]): FormField => {
    const modes = modesOf(def, name, ownPath);
    const value = example.fields[name] ?? (schema.default === undefined ? '' : String(schema.default));
    const kind = kindOf(schema);
    const options = (schema.enum ?? []).map(String);
    if (kind === 'select' && !required.has(name) && schema.default === undefined) options.unshift('');
    return {
      name,
      kind,
      options,
      required: required.has(name),
      value,
      min: schema.minimum,
      max: schema.maximum,
      maxLength: schema.maxLength,
      hint: def.semanticFields[name] ?? schema.description ?? '',
      modes,
    };
  });
  return {
    modeName: def.modeField,
    modes: [...def.modes],
    mode: example.mode,
    endpoints: Object.fromEntries(
      def.modes.map((m) => {
        const ep = endpointFor(def, m);
        return [m, { path: ep.path, fixed: ep.mode === m }];
      }),
    ),
    fields,
    example: example.fields,
  };
}

/**
 * The modes a field applies to, so the form shows and sends it under those only (docs/api.md,
 * "Tool pages"). A field a mode adds in `fieldsByMode` (regex `replacement`, cron `fields`)
 * belongs to the modes that add it. A mode with a path of its own takes the fields its slots
 * name and those no slot names: a base field it displaces is not its (the palette's `count`
 * under convert, cron's `expression` under build). A mode sharing its path with others takes
 * every field of that path, displaced or not (regex `flags` under replace). An option (a
 * field no slot names) belongs to the modes `optionModes` gives it, else to every mode; a
 * displaced field that `optionModes` names for a mode is that mode's too (cron's `timezone`
 * under convert).
 */
function modesOf(def: ToolSpec, name: string, ownPath: ReadonlySet<string>): string[] {
  const named = (mode: string) => Object.values(fieldsFor(def, mode)).includes(name);
  if (!Object.values(def.fields).includes(name)) {
    const adding = def.modes.filter((m) => Object.values(def.fieldsByMode?.[m] ?? {}).includes(name));
    return adding.length ? adding : [...(def.optionModes?.[name] ?? def.modes)];
  }
  const asOption = def.optionModes?.[name] ?? [];
  return def.modes.filter((m) => !ownPath.has(m) || named(m) || asOption.includes(m));
}

function kindOf(schema: PropertySchema): FormField['kind'] {
  if (schema.enum) return 'select';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 1 && (types[0] === 'integer' || types[0] === 'number')) return 'number';
  if (types.length === 1 && types[0] === 'string' && (schema.maxLength ?? Infinity) <= SINGLE_LINE_MAX)
    return 'text';
  return 'textarea';
}
