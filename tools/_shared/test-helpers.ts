/**
 * The tools' test kit. A worker only ever receives input that the API process has
 * validated against the tool's `input` schema (coerced, defaults filled) with a mode
 * resolved among the tool's modes; run.ts relies on that and does not check it again.
 * So unit tests run a tool the same way: `runTool` validates first, with the options of
 * the service's validators, and answers a schema failure with the code the service gives
 * (UNSUPPORTED_OPTION for an enum or an unknown mode, INVALID_INPUT otherwise). Messages
 * are the service's without its generic-slot hint ("(generic: a)").
 * The name matches the build's exclusion of test helpers.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import { expect } from 'vitest';
import {
  expandTool,
  quote,
  type ToolDefinition,
  type ToolErrorCode,
  type ToolInput,
  ToolInputError,
  type ToolSpec,
  unsupported,
} from '#tool-kit';

// ajv-formats is CommonJS with a default export; under NodeNext the callable is `.default`.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: false, strict: false });
addFormats(ajv);
const validators = new WeakMap<ToolSpec, ValidateFunction>();

const specs = new WeakMap<ToolDefinition, ToolSpec>();
/** A tool's spec: as the registry derives it from its definition (tool.ts), once per definition. */
export function specOf(def: ToolDefinition | ToolSpec): ToolSpec {
  if (!('title' in def)) return def;
  const known = specs.get(def);
  if (known) return known;
  const spec = expandTool(def);
  specs.set(def, spec);
  return spec;
}

/** A tool as a test holds it: its definition (tool.ts) and its implementation (run.ts). */
export interface ToolUnderTest<R> {
  def: ToolDefinition | ToolSpec;
  run: (input: ToolInput, mode: string) => R;
}

/** The mode as the service resolves it: empty means the default, case does not matter. */
export function resolveMode(tool: ToolDefinition | ToolSpec, mode?: string): string {
  const def = specOf(tool);
  if (mode === undefined || mode === '') return def.modes[0]!;
  const found = def.modes.find((m) => m.toLowerCase() === mode.toLowerCase());
  if (found === undefined) throw unsupported(def.modeField ?? 'mode', mode, def.modes);
  return found;
}

/** A copy of `input` as the worker would receive it, or the service's refusal. */
export function checkInput(tool: ToolDefinition | ToolSpec, input: Record<string, unknown>): ToolInput {
  const def = specOf(tool);
  let validate = validators.get(def);
  if (!validate) {
    validate = ajv.compile(def.input);
    validators.set(def, validate);
  }
  // The worker gets a structured clone; validation coerces that copy, never the caller's object.
  const copy = structuredClone(input);
  // (A test may hand in a non-object on purpose: the schema refuses it.)
  for (const [name, value] of Object.entries(copy ?? {}))
    if (blankNonText(def, name, value)) delete copy[name];
  if (validate(copy)) return copy;
  const err = validate.errors?.[0];
  throw err ? describe(def, err) : new ToolInputError('invalid input');
}

/** As the service reads `?c=` or `"limit": ""`: no text is possible there, so it means "not given". */
function blankNonText(def: ToolSpec, name: string, value: unknown): boolean {
  if (value !== '') return false;
  const properties = def.input.properties as Record<string, { type?: unknown }> | undefined;
  const type = properties?.[name]?.type;
  return type !== undefined && type !== 'string' && !(Array.isArray(type) && type.includes('string'));
}

function describe(def: ToolSpec, err: ErrorObject): ToolInputError {
  const path = err.instancePath.replace(/^\//, '').replaceAll('/', '.');
  switch (err.keyword) {
    case 'enum': {
      const allowed = (err.params.allowedValues as unknown[]).map(String).join(', ');
      return new ToolInputError(`${path} is not supported; supported: ${allowed}`, 'UNSUPPORTED_OPTION');
    }
    case 'required':
      return new ToolInputError(`${String(err.params.missingProperty)} is required`);
    case 'additionalProperties': {
      const known = [...Object.keys((def.input.properties as object) ?? {}), def.modeField];
      const extra = quote(String(err.params.additionalProperty));
      return new ToolInputError(
        `unknown field ${extra}; fields of ${def.id}: ${known.filter(Boolean).join(', ')}`,
      );
    }
    default:
      return new ToolInputError(`${path || 'input'} ${err.message ?? 'is invalid'}`);
  }
}

/** Runs a tool as the service does: mode resolved, input validated, then run.ts. */
export async function runTool<R>(
  tool: ToolUnderTest<R>,
  input: Record<string, unknown>,
  mode?: string,
): Promise<Awaited<R>> {
  return await runToolSync(tool, input, mode);
}

/** `runTool` for a tool whose run is synchronous: a refusal is thrown, not a rejection. */
export function runToolSync<R>(tool: ToolUnderTest<R>, input: Record<string, unknown>, mode?: string): R {
  const resolved = resolveMode(tool.def, mode);
  return tool.run(checkInput(tool.def, input), resolved);
}

/** `runTool` bound to one tool: `const call = toolRunner(def, run); await call({ text }, 'count')`. */
export function toolRunner<R>(def: ToolDefinition | ToolSpec, run: (input: ToolInput, mode: string) => R) {
  return (input: Record<string, unknown>, mode?: string) => runTool({ def, run }, input, mode);
}

/**
 * The ToolInputError a call fails with (a promise, or a function that throws or rejects),
 * checked for its code and, when given, its message (a substring or a pattern).
 */
export async function expectToolError(
  call: Promise<unknown> | (() => unknown),
  code: ToolErrorCode,
  message?: string | RegExp,
): Promise<ToolInputError> {
  const settled = typeof call === 'function' ? Promise.resolve().then(call) : call;
  const err = await settled.then(
    () => expect.unreachable('the call succeeded; a ToolInputError was expected'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolInputError);
  const toolError = err as ToolInputError;
  expect(toolError.code, toolError.message).toBe(code);
  if (typeof message === 'string') expect(toolError.message).toContain(message);
  else if (message) expect(toolError.message).toMatch(message);
  return toolError;
}

/** A tool's conformance.json, one entry a suite: the cases its tests run. */
interface ConformanceEntry {
  suite: string;
  cases: number;
}
const conformanceFiles = new Map<string, ConformanceEntry[]>();

/**
 * The `cases` that the conformance.json beside a test declares for one suite: the one
 * entry whose `suite` starts with `suite` (the full name or a prefix of it). `from` is
 * the test's `import.meta.url`. Throws when no entry, or more than one, matches.
 */
export function declaredCases(from: string | URL, suite: string): number {
  const file = new URL('conformance.json', from).href;
  let entries = conformanceFiles.get(file);
  if (!entries) {
    entries = JSON.parse(readFileSync(new URL(file), 'utf8')) as ConformanceEntry[];
    conformanceFiles.set(file, entries);
  }
  const found = entries.filter((e) => e.suite.startsWith(suite));
  if (found.length !== 1) {
    const what = found.length === 0 ? 'no suite' : `${found.length} suites`;
    throw new Error(
      `${file}: ${what} named ${JSON.stringify(suite)}...; suites: ${entries.map((e) => e.suite).join(' | ')}`,
    );
  }
  return found[0]!.cases;
}

/**
 * A seeded generator of numbers in [0, 1) (mulberry32): the same "random" cases on every
 * run, so a failure can be replayed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
