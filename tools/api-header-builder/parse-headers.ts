import { parseJsonField, ToolInputError } from '#tool-kit';
import { MAX_HEADERS } from './tool.js';

export const MAX_HEADER_NAME = 256;
export const MAX_HEADER_VALUE = 8192;

/** RFC 7230 §3.2.6 token (the only legal header field name). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The client computes these from the body it sends; a stale value breaks the request. */
const DROPPED = new Set(['content-length', 'transfer-encoding']);

export interface ParsedHeaders {
  /** Name (first spelling seen) and value, duplicates merged, in input order. */
  list: [string, string][];
  warnings: string[];
}

/**
 * Headers from a JSON object, JSON text, or `Name: value` lines (an object or text the input
 * schema passed: at most MAX_HEADERS properties, text within its length); validated and merged.
 */
export function parseHeaders(raw: unknown): ParsedHeaders {
  const pairs = toPairs(raw);
  if (pairs.length > MAX_HEADERS) {
    throw new ToolInputError(`too many headers: ${pairs.length} (at most ${MAX_HEADERS})`);
  }
  const merged = new Map<string, [string, string]>();
  const warnings: string[] = [];
  for (const [rawName, rawValue] of pairs) {
    const name = checkName(rawName);
    const value = checkValue(name, rawValue);
    const key = name.toLowerCase();
    if (DROPPED.has(key)) {
      warnings.push(`${name} was dropped: the client computes it from the body`);
      continue;
    }
    const seen = merged.get(key);
    // RFC 7230 §3.2.2: repeated fields combine with commas; Cookie pairs combine with "; ".
    if (seen) seen[1] = `${seen[1]}${key === 'cookie' ? '; ' : ', '}${value}`;
    else merged.set(key, [name, value]);
  }
  return { list: [...merged.values()], warnings };
}

function toPairs(raw: unknown): [string, unknown][] {
  if (raw === undefined) return [];
  if (typeof raw === 'string') {
    if (raw.trim() === '') return [];
    // JSON text that starts with `{` is an object (or not JSON at all).
    if (raw.trimStart().startsWith('{')) return toPairs(parseJsonField(raw, 'headers'));
    return parseLines(raw);
  }
  // The schema bounds an object's properties, but not those of an object given as JSON text.
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) {
    throw new ToolInputError(`too many headers: ${entries.length} (at most ${MAX_HEADERS})`);
  }
  return entries;
}

function parseLines(text: string): [string, unknown][] {
  const pairs: [string, unknown][] = [];
  const lines = text.split(/\r\n|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    if (pairs.length >= MAX_HEADERS) {
      throw new ToolInputError(`too many headers (at most ${MAX_HEADERS})`);
    }
    if (line.startsWith(' ') || line.startsWith('\t')) {
      throw new ToolInputError(`header line ${i + 1} starts with whitespace (line folding is not supported)`);
    }
    const colon = line.indexOf(':');
    if (colon <= 0) throw new ToolInputError(`header line ${i + 1} is not of the form \`Name: value\``);
    pairs.push([line.slice(0, colon), line.slice(colon + 1)]);
  }
  return pairs;
}

function checkName(name: string): string {
  const shown = JSON.stringify(name.slice(0, 64));
  if (name.length === 0 || name.length > MAX_HEADER_NAME || !TOKEN.test(name)) {
    throw new ToolInputError(`header name ${shown} is not a valid HTTP token (RFC 7230)`);
  }
  // A plain-object property of this name would set the prototype instead (httpsnippet builds objects).
  if (name === '__proto__') throw new ToolInputError('header name "__proto__" is not supported');
  return name;
}

function checkValue(name: string, raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    throw new ToolInputError(`header ${name}: the value must be a string`);
  }
  // Field values exclude leading and trailing whitespace (RFC 7230 §3.2.4).
  const value = String(raw).replace(/^[ \t]+|[ \t]+$/g, '');
  if (value.length > MAX_HEADER_VALUE) {
    throw new ToolInputError(`header ${name}: the value is longer than ${MAX_HEADER_VALUE} characters`);
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x0d || code === 0x0a) {
      throw new ToolInputError(`header ${name}: the value contains CR or LF (header injection is refused)`);
    }
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) {
      throw new ToolInputError(`header ${name}: the value contains a control character (U+${hex(code)})`);
    }
    if (code > 0xff) {
      throw new ToolInputError(
        `header ${name}: the value contains U+${hex(code)}, which HTTP/1.1 headers cannot carry; percent-encode it`,
      );
    }
  }
  return value;
}

const hex = (code: number): string => code.toString(16).toUpperCase().padStart(4, '0');
