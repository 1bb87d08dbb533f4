import * as crypto from 'node:crypto';
import { nonFinitePlaces } from '../shared/non-finite.js';
import type { ToolSpec } from '../shared/tool-def.js';

/**
 * SHA-256 in base64url: the one-shot `crypto.hash` (Node 20.12+, ~3x faster than a Hash
 * object for a short text), else a Hash object.
 */
const sha256: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'base64url')
    : (text) => crypto.createHash('sha256').update(text).digest('base64url');

/**
 * The content address of a run (docs/api.md, "Result cache and ETags"): SHA-256 of the
 * tool id, the tool's version (src/cache/tool-version.ts), the mode and the canonical
 * input, base64url. Equal inputs in any field order or JSON encoding share it; the tool's
 * code or a library it imports changing gives another.
 */
export function contentKey(
  toolId: string,
  version: string,
  mode: string,
  input: Record<string, unknown>,
  jsonText: ReadonlySet<string> = NO_FIELDS,
): string {
  return keyOf(keyPrefix(toolId, version, mode), input, jsonText);
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/** The part of a content key's text before the input: JSON framing, so no id, version or mode runs into the next. */
export function keyPrefix(toolId: string, version: string, mode: string): string {
  return `${JSON.stringify([toolId, version, mode])}\0`;
}

/** A content key from its prefix (kept per tool and mode by the caller) and the input. */
export function keyOf(prefix: string, input: Record<string, unknown>, jsonText: ReadonlySet<string>): string {
  return sha256(prefix + canonicalInput(input, jsonText));
}

/**
 * The input as one text: its fields sorted by name (UTF-16 code units, as RFC 8785 sorts),
 * since a tool reads its fields by name; each value as JSON.stringify writes it, the keys
 * inside it in their own order, since a tool's answer may follow that order (the properties
 * of a generated schema, the headers of generated code): a cache that sorted them would answer
 * one order's bytes to the other under the same strong ETag. A field the tool takes as a
 * JSON value or its JSON text alike (`jsonText` in its tool.ts) counts a value as its JSON
 * text, the form the generic runtime sends. The input has been parsed and coerced by then,
 * so `"\u0041"` and `"A"`, `1.0` and `1` are the same text.
 */
export function canonicalInput(input: Record<string, unknown>, jsonText: ReadonlySet<string>): string {
  const pairs: unknown[] = [];
  for (const name of Object.keys(input).sort()) {
    let value = input[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' && jsonText.has(name)) {
      const text = JSON.stringify(value);
      // A value holding a number JSON cannot write has no JSON text: it stays a value.
      if (!text.includes('null') || nonFinitePlaces(value).length === 0) value = text;
    }
    pairs.push(name, value);
  }
  const text = JSON.stringify(pairs);
  // JSON writes Infinity (a number past a double's range, such as 1e400, parses to it) as null:
  // where the text has a null, the places of the numbers that are not finite are added after a
  // NUL (which JSON text never holds unescaped), so 1e400 and null keep their own keys.
  if (!text.includes('null')) return text;
  const places = nonFinitePlaces(pairs);
  return places.length === 0 ? text : `${text}\0${places.join('\0')}`;
}

/** The strong ETag of every 200 of a run with this content key. */
export function etagOf(key: string): string {
  return `"${key}"`;
}

/**
 * Whether an If-None-Match field names this ETag. The comparison is weak (RFC 9110
 * 13.1.2): `W/"x"` matches `"x"`. `*` is not honoured: it would answer 304 to every input.
 */
export function matchesEtag(field: string | string[] | undefined, etag: string): boolean {
  if (field === undefined) return false;
  const text = Array.isArray(field) ? field.join(',') : field;
  if (text.length > 8192) return false;
  for (const part of text.split(',')) {
    let tag = part.trim();
    if (tag.startsWith('W/')) tag = tag.slice(2);
    if (tag === etag) return true;
  }
  return false;
}

/**
 * Whether the tool's result is a function of its mode and input alone (the tool's
 * `deterministic` declaration): `{whenGiven: [...]}` when some fields default to something
 * outside the input, such as cron's `from` to the clock.
 */
export function isDeterministic(def: ToolSpec, input: Record<string, unknown>): boolean {
  const d = def.deterministic;
  if (typeof d === 'boolean') return d;
  return d.whenGiven.every((field) => input[field] !== undefined);
}

/** The strong ETag of a batch request's answer: its runs' ETags, in order (every run deterministic). */
export function batchRequestEtagOf(etags: readonly string[]): string {
  return `"${sha256(etags.join(','))}"`;
}
