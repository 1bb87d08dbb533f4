/**
 * The shared data model every format is read into and written from: plain JSON values.
 * Parsers hand back library-specific things (TOML dates, null-prototype objects, YAML
 * numbers like .inf); `toJsonModel` copies them into bounded plain JSON once, so the
 * writers only ever see one shape.
 */
import { ToolInputError } from '#tool-kit';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Deepest nesting accepted (matches fast-xml-parser's own default tag depth). */
export const MAX_DEPTH = 100;
/** Most values (scalars + containers) one document may hold after alias expansion. */
export const MAX_NODES = 1_000_000;
/** Largest converted text returned (the input is at most 512 KiB; YAML aliases can grow it). */
export const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;

/** Refuses a converted text past MAX_OUTPUT_CHARS (checked before it is read back). */
export function checkOutputSize(format: string, output: string): void {
  if (output.length > MAX_OUTPUT_CHARS) {
    throw new ToolInputError(`the converted ${format} text would exceed ${MAX_OUTPUT_CHARS} characters`);
  }
}

export function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON Pointer (RFC 6901) for messages; the root is shown as `(root)`. */
export function childPath(path: string, key: string | number): string {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

export function where(path: string): string {
  return path === '' ? '(root)' : path;
}

export function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Assigns without triggering the `__proto__` setter, so such a key stays plain data. */
export function setKey(target: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Types a cell of a text-only format (CSV, TSV, XML, INI): `true`/`false` become booleans,
 * plain decimal numbers become numbers (not `007`, not integers past 2^53, which would lose
 * digits), an empty CSV cell becomes null. Hand-written because each library types differently
 * (papaparse even turns ISO dates into Date objects) and one rule keeps round-trips predictable.
 */
export function inferScalar(text: string, emptyAsNull: boolean): Json {
  if (text === '') return emptyAsNull ? null : '';
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (NUMBER.test(text)) {
    const n = Number(text);
    const integerForm = !/[.eE]/.test(text);
    if (Number.isFinite(n) && (!integerForm || Number.isSafeInteger(n))) return n;
  }
  return text;
}

function isPlainRecord(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Copies parser output into plain, bounded JSON; `strings` types the text of text-only formats. */
export function toJsonModel(value: unknown, strings?: (text: string) => Json): Json {
  let nodes = 0;
  const walk = (v: unknown, path: string, depth: number): Json => {
    nodes += 1;
    if (nodes > MAX_NODES) throw new ToolInputError(`the data holds more than ${MAX_NODES} values`);
    if (v === null || v === undefined) return null;
    if (typeof v === 'string') return strings ? strings(v) : v;
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return v;
      throw new ToolInputError(
        `the value at ${where(path)} is ${String(v)}, which JSON (the data model shared by all formats) cannot hold`,
      );
    }
    if (typeof v === 'bigint') {
      if (Number.isSafeInteger(Number(v))) return Number(v);
      throw new ToolInputError(`the integer at ${where(path)} is too large to convert without losing digits`);
    }
    // TOML dates and times (smol-toml's TomlDate keeps its original form in toISOString).
    if (v instanceof Date) {
      if (Number.isNaN(v.getTime())) throw new ToolInputError(`invalid date at ${where(path)}`);
      return v.toISOString();
    }
    if (typeof v !== 'object') throw new ToolInputError(`unsupported ${typeof v} value at ${where(path)}`);
    if (depth >= MAX_DEPTH) throw new ToolInputError(`the data is nested deeper than ${MAX_DEPTH} levels`);
    if (Array.isArray(v)) return v.map((item, i) => walk(item, childPath(path, i), depth + 1));
    if (!isPlainRecord(v)) {
      throw new ToolInputError(`unsupported value (${v.constructor?.name ?? 'object'}) at ${where(path)}`);
    }
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(v))
      setKey(out, key, walk(item, childPath(path, key), depth + 1));
    return out;
  };
  return walk(value, '', 0);
}

/** Turns a parser's failure into INVALID_INPUT; a blown stack means pathological nesting. */
export function parseFailure(label: string, err: unknown): ToolInputError {
  if (err instanceof ToolInputError) return err;
  if (err instanceof RangeError) return new ToolInputError(`input is not valid ${label}: nested too deeply`);
  const message = err instanceof Error ? err.message : String(err);
  const firstLine = message.split('\n', 1)[0]!.replace(/:\s*$/, '');
  return new ToolInputError(`input is not valid ${label}: ${firstLine}`);
}
