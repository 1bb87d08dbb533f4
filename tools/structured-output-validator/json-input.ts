/**
 * Reading the `schema` and `target` fields: JSON text or a JSON value, with bounds on
 * depth, node count and inner strings so that later recursive steps (ajv compile,
 * validation) cannot overflow the stack or run away. The length of a text field is the
 * input schema's (tool.ts), checked before the run.
 */
import { ToolInputError } from '#tool-kit';
import { findJsonErrorOffset } from './json-locate.js';
import { MAX_FIELD_CHARS } from './tool.js';

export const MAX_SCHEMA_DEPTH = 128;
export const MAX_TARGET_DEPTH = 512;
const MAX_NODES = 1_000_000;

/** Line and column (1-based) of a character offset, for error messages. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * JSON.parse's message with a line/column computed by us: Node 20 only gives a position, and
 * when `text` is a slice of a larger document (`offset`), the line must be in that document.
 */
export function describeJsonError(text: string, err: unknown, whole = text, offset = 0): string {
  const message = (err instanceof Error ? err.message : String(err)).replace(/ \(line \d+ column \d+\)/, '');
  const pos = /(?: in JSON)? at position (\d+)/.exec(message);
  const at = pos ? Number(pos[1]) : findJsonErrorOffset(text);
  // V8's position is relative to `text`: replaced by a line/column in `whole`.
  const bare = pos ? message.replace(pos[0], '') : message;
  if (at < 0) return message;
  if (at >= text.length) return `${bare} (at the end of the text)`;
  const { line, column } = lineColumn(whole, offset + at);
  return `${bare} (line ${line}, column ${column})`;
}

/** Parses a field given as JSON text, or takes a JSON value as is. */
export function readJsonField(value: unknown, field: string, hint = ''): unknown {
  if (typeof value !== 'string') return value;
  const text = value.replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new ToolInputError(`${field} is empty: give JSON text or a JSON value`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ToolInputError(`${field} is not valid JSON: ${describeJsonError(text, err)}${hint}`);
  }
}

/** Iterative walk (no recursion): refuses values nested deeper than maxDepth or too large. */
export function checkJsonShape(value: unknown, field: string, maxDepth: number): void {
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (++nodes > MAX_NODES) throw new ToolInputError(`${field} is too large: more than ${MAX_NODES} values`);
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'string' && v.length > MAX_FIELD_CHARS) {
        throw new ToolInputError(`${field} holds a string that is too long (max ${MAX_FIELD_CHARS})`);
      }
      if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint' || v === undefined) {
        throw new ToolInputError(`${field} must be a JSON value, not a ${typeof v}`);
      }
      continue;
    }
    if (d >= maxDepth) throw new ToolInputError(`${field} is nested too deeply (max depth ${maxDepth})`);
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) stack.push({ v: child, d: d + 1 });
  }
}

/** JSON Pointer (RFC 6901) segment escaping. */
export function pointerSegment(key: string | number): string {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
