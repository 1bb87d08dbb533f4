import { isObject } from '../shared/is-object.js';
import { boundMessage, cut, ECHO_MAX_CHARS } from '../shared/quote.js';

/** A run longer than any echoed value may be: no space and no quote in it. */
const LONG_RUN = new RegExp(`[^\\s"'\`]{${ECHO_MAX_CHARS + 1},}`, 'g');

/**
 * A string of an error the SDK answers with its echoes bounded (docs/api.md, "Errors":
 * values cut at 100 characters, messages at 1,000): each of the request's long header
 * values (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`… as sent), then any other run
 * without a space or quote longer than a value may be (a decoded `Mcp-Name`, a body field
 * the message names), then the whole string.
 */
export function boundEcho(text: string, echoes: readonly string[]): string {
  let out = text;
  for (const value of echoes) if (out.includes(value)) out = out.split(value).join(cut(value));
  return boundMessage(out.replace(LONG_RUN, (run) => cut(run)));
}

/** The request's header values an error could echo past the bound, longest first. */
export function longHeaderValues(headers: Headers): string[] {
  const values = new Set<string>();
  headers.forEach((value) => {
    if (value.length > ECHO_MAX_CHARS) values.add(value);
    const trimmed = value.trim();
    if (trimmed.length > ECHO_MAX_CHARS) values.add(trimmed);
  });
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * An SDK answer (JSON, or SSE `data:` lines) with the `message` and every string of the
 * `data` of each JSON-RPC error bounded by boundEcho; null when nothing needed it (the
 * answer goes out as it came, byte for byte).
 */
export function boundErrorAnswer(
  contentType: string | null,
  text: string,
  echoes: readonly string[],
): string | null {
  if (!text.includes('"error"')) return null;
  if (!contentType?.startsWith('text/event-stream')) return boundErrors(text, echoes);
  let changed = false;
  const lines = text.split('\n').map((line) => {
    if (!line.startsWith('data: ')) return line;
    const bounded = boundErrors(line.slice(6), echoes);
    if (bounded === null) return line;
    changed = true;
    return `data: ${bounded}`;
  });
  return changed ? lines.join('\n') : null;
}

/** One JSON text of JSON-RPC messages (one or a message array) with its errors bounded, or null. */
function boundErrors(json: string, echoes: readonly string[]): string | null {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  let changed = false;
  for (const message of Array.isArray(value) ? value : [value]) {
    if (!isObject(message) || !isObject(message.error)) continue;
    const error = message.error;
    const bounded = boundStrings(error, echoes, ['message', 'data']);
    if (bounded !== error) {
      message.error = bounded;
      changed = true;
    }
  }
  return changed ? JSON.stringify(value) : null;
}

/** A JSON value with its strings bounded (only the named keys at the top), the same object when none changed. */
function boundStrings(value: unknown, echoes: readonly string[], keys?: string[]): unknown {
  if (typeof value === 'string') return boundEcho(value, echoes);
  if (Array.isArray(value)) {
    const out = value.map((v) => boundStrings(v, echoes));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (!isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(value)) {
    if (keys && !keys.includes(key)) continue;
    const bounded = boundStrings(v, echoes);
    if (bounded !== v) {
      out ??= { ...value };
      out[key] = bounded;
    }
  }
  return out ?? value;
}
