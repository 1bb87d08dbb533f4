import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { ownAjv } from '../ajv.js';
import { HubError } from '../errors.js';
import type { RegisteredTool } from '../registry.js';
import { quote } from '../shared/quote.js';
import {
  type FieldMap,
  fieldsFor,
  type Slot,
  type ToolEndpoint,
  type ToolInput,
  type ToolSpec,
} from '../shared/tool-def.js';

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/** The generic runtime endpoint's input members (docs/api.md), already normalised to strings. */
export interface GenericInput {
  a?: string;
  b?: string;
  c?: string;
  mode?: string;
  /** The tool's other named fields (docs/api.md, "Options"): those no slot carries. */
  options?: Record<string, unknown>;
}

export interface ResolvedInput {
  mode: string;
  input: ToolInput;
}

/**
 * Compiles every tool's input schema once. Coercion lets query strings and the
 * generic `a`/`b`/`c` strings become the declared types ("256" → 256).
 */
export function compileValidators(tools: Map<string, RegisteredTool>): Map<string, ValidateFunction> {
  const ajv = ownAjv({ coerceTypes: true, useDefaults: true, allErrors: false });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  for (const [id, { def }] of tools) validators.set(id, ajv.compile(def.input));
  return validators;
}

/** Finds `requested` among `allowed`, case-insensitively; the first is the default. */
export function resolveMode(def: ToolSpec, requested: unknown, allowed: readonly string[]): string {
  if (requested === undefined || requested === null || requested === '') return allowed[0]!;
  if (typeof requested !== 'string') {
    throw new HubError('INVALID_INPUT', `the mode must be a string, one of: ${allowed.join(', ')}`);
  }
  const wanted = requested.toLowerCase();
  const found = allowed.find((m) => m.toLowerCase() === wanted);
  if (found) return found;
  throw new HubError(
    'UNSUPPORTED_OPTION',
    `mode ${quote(requested)} is not supported by ${def.id}; supported: ${allowed.join(', ')}`,
  );
}

/** Maps the generic `a`/`b`/`c`/`mode` onto the tool's named input (docs/api.md). */
export function fromGeneric(def: ToolSpec, generic: GenericInput): ResolvedInput {
  const mode = resolveMode(def, generic.mode, def.modes);
  const fields = fieldsFor(def, mode);
  const input: ToolInput = {};
  for (const slot of ['a', 'b', 'c'] as Slot[]) {
    const name = fields[slot];
    const value = generic[slot];
    // A slot the tool does not use is ignored, as the README says.
    if (name && value !== undefined && !blankNonText(def, name, value)) input[name] = value;
  }
  for (const [name, value] of Object.entries(generic.options ?? {})) {
    if (name === 'mode' || name === def.modeField)
      throw new HubError('INVALID_INPUT', `options.${name}: give the mode as mode`);
    const slot = slotOf(fields, name);
    if (slot)
      throw new HubError(
        'INVALID_INPUT',
        `options.${name}: ${quote(name)} is ${slot} here, give it as ${slot}`,
      );
    // defineProperty: a `__proto__` option stays a field (and is refused as unknown by the schema).
    if (!blankNonText(def, name, value))
      Object.defineProperty(input, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { mode, input };
}

/** The generic slot that carries `name` in this field map, if one does. */
function slotOf(fields: FieldMap, name: string): Slot | undefined {
  return (['a', 'b', 'c'] as Slot[]).find((s) => fields[s] === name);
}

/**
 * An empty string where no text is possible (a count, a limit, a size) means "not
 * given": `?c=` or `"limit": ""` gets the default. Where text is possible it stays,
 * since it can mean something (an empty replacement deletes the matches).
 */
function blankNonText(def: ToolSpec, name: string, value: unknown): boolean {
  if (value !== '') return false;
  const properties = def.input.properties as Record<string, { type?: unknown }> | undefined;
  const type = properties?.[name]?.type;
  return type !== undefined && type !== 'string' && !(Array.isArray(type) && type.includes('string'));
}

/** Named fields of a dedicated endpoint (JSON body or query) → mode and named input. */
export function fromDedicated(
  def: ToolSpec,
  endpoint: ToolEndpoint,
  fields: Record<string, unknown>,
): ResolvedInput {
  // fromEntries defines own keys: a `__proto__` field stays a field (and is refused as unknown).
  const input: ToolInput = Object.fromEntries(
    Object.entries(fields).filter(([name, value]) => !blankNonText(def, name, value)),
  );
  let mode: string;
  if (endpoint.mode) {
    mode = endpoint.mode;
    // The path names the mode: a mode field here would be ignored, so it is refused by name.
    const field = def.modeField;
    if (field && input[field] !== undefined)
      throw new HubError(
        'INVALID_INPUT',
        `${quote(field)} is not taken here: ${endpoint.path} always runs mode ${quote(mode)}; leave ${field} out`,
      );
  } else {
    const field = def.modeField!;
    mode = resolveMode(def, input[field], endpoint.modes ?? def.modes);
    delete input[field];
  }
  return { mode, input };
}

/**
 * Named arguments of one call (an MCP `tools/call`) → mode and named input: the mode
 * travels as the argument `modeArgument` (the tool's mode field, or `mode`).
 */
export function fromArguments(
  def: ToolSpec,
  args: Record<string, unknown>,
  modeArgument: string,
): ResolvedInput {
  const mode = resolveMode(def, args[modeArgument], def.modes);
  // fromEntries defines own keys: a `__proto__` argument stays an argument (and is refused as unknown).
  const input: ToolInput = Object.fromEntries(
    Object.entries(args).filter(([name, value]) => name !== modeArgument && !blankNonText(def, name, value)),
  );
  return { mode, input };
}

/** UTF-8 bytes of the tool input and mode, against `inputMaxBytes` (INPUT_TOO_LARGE). */
export function inputBytes(resolved: ResolvedInput): number {
  let total = Buffer.byteLength(resolved.mode);
  for (const value of Object.values(resolved.input)) {
    if (typeof value === 'string') total += Buffer.byteLength(value);
    else if (value !== undefined) total += Buffer.byteLength(JSON.stringify(value) ?? '');
  }
  return total;
}

/** Validates (and coerces) the named input; the first problem becomes the error. */
export function validateInput(def: ToolSpec, validate: ValidateFunction, resolved: ResolvedInput): void {
  if (validate(resolved.input)) return;
  const err = validate.errors?.[0];
  throw err ? describe(def, resolved.mode, err) : new HubError('INVALID_INPUT', 'invalid input');
}

function describe(def: ToolSpec, mode: string, err: ErrorObject): HubError {
  const path = err.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const slotHint = (name: string) => {
    const slot = slotOf(fieldsFor(def, mode), name);
    return slot ? ` (generic: ${slot})` : '';
  };
  switch (err.keyword) {
    case 'enum': {
      const allowed = (err.params.allowedValues as unknown[]).map(String);
      return new HubError('UNSUPPORTED_OPTION', `${path} is not supported; supported: ${allowed.join(', ')}`);
    }
    case 'required': {
      const name = String(err.params.missingProperty);
      return new HubError('INVALID_INPUT', `${name}${slotHint(name)} is required`);
    }
    case 'additionalProperties': {
      const known = Object.keys((def.input.properties as object) ?? {});
      const extra = String(err.params.additionalProperty);
      return new HubError(
        'INVALID_INPUT',
        `unknown field ${quote(extra)}; fields of ${def.id}: ${[...known, def.modeField].filter(Boolean).join(', ')}`,
      );
    }
    default:
      return new HubError(
        'INVALID_INPUT',
        `${path || 'input'}${slotHint(path)} ${err.message ?? 'is invalid'}`,
      );
  }
}
