import * as crypto from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { ToolDefinition } from '../shared/tool-def.js';

/**
 * Canonical JSON: object keys sorted (by UTF-16 code units, as RFC 8785 does), numbers and
 * strings as JSON.stringify writes them. The input has been parsed and coerced by then, so
 * `{"b":1,"a":"\u0041"}` and `{"a":"A","b":1.0}` are the same text. A library rather than
 * a hand-written sort: safe-stable-stringify is pino's, fast and well kept.
 */
const canonical = configure({ deterministic: true, bigint: false, circularValue: Error });

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
 * input, base64url. Equal inputs in any key order or encoding share it; the tool's code or
 * a library it imports changing gives another.
 */
export function contentKey(toolId: string, version: string, mode: string, input: unknown): string {
  return keyOf(keyPrefix(toolId, version, mode), input);
}

/** The part of a content key's text before the input: JSON framing, so no id, version or mode runs into the next. */
export function keyPrefix(toolId: string, version: string, mode: string): string {
  return `${JSON.stringify([toolId, version, mode])}\0`;
}

/** A content key from its prefix (kept per tool and mode by the caller) and the input. */
export function keyOf(prefix: string, input: unknown): string {
  return sha256(prefix + (canonical(input) ?? 'null'));
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
export function isDeterministic(def: ToolDefinition, input: Record<string, unknown>): boolean {
  const d = def.deterministic;
  if (typeof d === 'boolean') return d;
  return d.whenGiven.every((field) => input[field] !== undefined);
}

/** The strong ETag of a batch answer: its runs' ETags, in order (every run deterministic). */
export function batchEtagOf(etags: readonly string[]): string {
  return `"${sha256(etags.join(','))}"`;
}
