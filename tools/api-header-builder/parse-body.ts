import { ToolInputError } from '#tool-kit';
import { hasProtoKey, lossyNumber } from '../_shared/json-exact.js';

/** Deepest JSON nesting accepted: the literal writers recurse once per level. */
export const MAX_JSON_DEPTH = 64;

export type Body =
  | { kind: 'none'; text: null }
  /** `asText`: the snippets must send `text` as is, because a code literal of `value` would differ. */
  | { kind: 'json'; text: string; value: unknown; asText: boolean }
  | { kind: 'text'; text: string };

const JSON_MIME = /^(application|text)\/([\w.-]+\+)?(x-)?json$/i;

/** True for application/json, text/json and any `+json` media type. */
export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && JSON_MIME.test(contentType.split(';')[0]!.trim());
}

/**
 * Classifies the body (text within the input schema's length, or a JSON object or array).
 * A JSON value, or text that parses as a JSON object/array, is JSON unless the given
 * Content-Type says otherwise; with a JSON Content-Type the text must parse.
 */
export function parseBody(raw: unknown, contentType: string | undefined, warnings: string[]): Body {
  if (raw === undefined || raw === '') return { kind: 'none', text: null };
  const explicitJson = isJsonContentType(contentType);
  const explicitOther = contentType !== undefined && !explicitJson;
  if (typeof raw !== 'string') {
    const text = jsonText(raw);
    if (explicitOther) {
      warnings.push(`the body was serialised as JSON text and sent with Content-Type ${contentType}`);
      return { kind: 'text', text };
    }
    return { kind: 'json', text, value: raw, asText: hasProtoKey(raw) };
  }
  if (explicitJson) {
    const value = parseJson(
      raw,
      (msg) => `body is not valid JSON but Content-Type is ${contentType}: ${msg}`,
    );
    return jsonBody(raw, value, warnings);
  }
  const trimmed = raw.trim();
  if (!explicitOther && (trimmed.startsWith('{') || trimmed.startsWith('['))) {
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch (err) {
      warnings.push(`the body looks like JSON but does not parse (${(err as Error).message}); sent as text`);
    }
    // Only a syntax error falls back to text: JSON nested too deep is refused, as on the JSON path.
    if (value !== undefined) return jsonBody(raw, value, warnings);
  }
  checkText(raw);
  return { kind: 'text', text: raw };
}

/** A parsed JSON text body; kept verbatim when re-serialising would round one of its numbers. */
function jsonBody(raw: string, value: unknown, warnings: string[]): Body {
  const lossy = lossyNumber(raw);
  if (lossy === undefined) return { kind: 'json', text: jsonText(value), value, asText: hasProtoKey(value) };
  // 1e400 parses as Infinity: legal JSON that only the verbatim text carries.
  checkJson(value, 0, false);
  warnings.push(
    `the number ${lossy.slice(0, 40)} has no exact double form, so the body is sent verbatim as JSON text (a code literal would round it)`,
  );
  checkText(raw);
  return { kind: 'json', text: raw, value, asText: true };
}

function parseJson(text: string, message: (msg: string) => string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new ToolInputError(message((err as Error).message));
  }
}

/** Compact JSON text of a value, after checking that it is plain, finite and not too deep. */
function jsonText(value: unknown): string {
  checkJson(value, 0);
  return JSON.stringify(value);
}

function checkJson(value: unknown, depth: number, finite = true): void {
  if (depth > MAX_JSON_DEPTH) {
    throw new ToolInputError(`body JSON is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (finite && !Number.isFinite(value)) throw new ToolInputError('body JSON contains a non-finite number');
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) checkJson(item, depth + 1, finite);
    return;
  }
  if (typeof value === 'object') {
    for (const item of Object.values(value as Record<string, unknown>)) checkJson(item, depth + 1, finite);
    return;
  }
  throw new ToolInputError(`body contains a value of type ${typeof value}, which JSON cannot carry`);
}

/**
 * Text bodies travel inside shell and source literals: tab, CR and LF only among controls,
 * and no lone surrogate (it has no UTF-8 form, so no client could send it).
 */
function checkText(text: string): void {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
      else
        throw new ToolInputError(
          `body contains a lone surrogate U+${code.toString(16).toUpperCase()} (no UTF-8 form)`,
        );
      continue;
    }
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) {
      throw new ToolInputError(
        `body contains the control character U+${code.toString(16).toUpperCase().padStart(4, '0')} (binary bodies are not supported)`,
      );
    }
  }
}
