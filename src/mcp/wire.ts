import type { HubError } from '../errors.js';
import { isObject } from '../shared/is-object.js';
import type { McpParts } from './server.js';

/**
 * A POST body of /mcp as JSON-RPC: one message, a message array (JSON-RPC 2.0's "batch"), or
 * not JSON at all.
 */
export type Body =
  | { kind: 'junk' }
  | { kind: 'one'; message: unknown }
  | { kind: 'array'; messages: unknown[] };

export function readBody(text: string): Body {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'junk' };
  }
  return Array.isArray(value) ? { kind: 'array', messages: value } : { kind: 'one', message: value };
}

/** The bounds of a message array (MCP_BATCH_MAX_MESSAGES, MCP_BATCH_MAX_ANSWER_BYTES). */
export interface MessageArrayBounds {
  maxMessages: number;
  maxAnswerBytes: number;
}

/**
 * Why a message array is refused before any of it runs, or null (docs/api.md, "MCP for agents"):
 * more messages than MCP_BATCH_MAX_MESSAGES; listings and resources adding up to more than
 * MCP_BATCH_MAX_ANSWER_BYTES (each counted at its known size: 100 `tools/list` in 5 kB
 * would answer 3.4 MB); or two requests with the same id, which would both run while the
 * client could read only one answer.
 */
export function arrayProblem(
  messages: unknown[],
  bounds: MessageArrayBounds,
  parts: McpParts,
): string | null {
  if (messages.length > bounds.maxMessages) {
    return `an array of JSON-RPC messages holds at most ${bounds.maxMessages} on this hub; this one has ${messages.length}`;
  }
  const ids = new Set<string>();
  let bytes = 0;
  for (const message of messages) {
    if (!isObject(message)) continue;
    if ('id' in message && 'method' in message) {
      const key = JSON.stringify(message.id);
      if (ids.has(key)) return `the JSON-RPC id ${key.slice(0, 100)} is used twice in one array`;
      ids.add(key);
    }
    bytes += answerBytes(message, parts);
  }
  if (bytes > bounds.maxAnswerBytes) {
    return `the array asks for about ${bytes} bytes of listings and resources; at most ${bounds.maxAnswerBytes} an array`;
  }
  return null;
}

/** Bytes a message's answer will have when the hub knows them before any work. */
function answerBytes(message: Record<string, unknown>, parts: McpParts): number {
  const method = message.method;
  if (method === 'resources/read') {
    const uri = isObject(message.params) ? message.params.uri : undefined;
    return typeof uri === 'string' ? (parts.resources.get(uri)?.text.length ?? 0) : 0;
  }
  const listing = parts.listings.json[method as keyof McpParts['listings']['json']];
  return listing?.length ?? 0;
}

/** JSON-RPC error codes a client earns by sending something malformed or unknown (junk). */
const JUNK_CODES = new Set([-32700, -32600, -32601, -32602]);

/**
 * How many messages of an SDK answer are junk errors (parse error, invalid request, unknown
 * method, invalid params: an unknown tool or resource). The answer is JSON or SSE `data:`
 * lines; each message is one JSON-RPC response.
 */
export function junkInAnswer(contentType: string | null, text: string): number {
  if (!text.includes('"error"')) return 0;
  const chunks = contentType?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
    : [text];
  let junk = 0;
  for (const chunk of chunks) {
    let value: unknown;
    try {
      value = JSON.parse(chunk);
    } catch {
      continue;
    }
    for (const message of Array.isArray(value) ? value : [value]) {
      const code = isObject(message) && isObject(message.error) ? message.error.code : undefined;
      if (typeof code === 'number' && JUNK_CODES.has(code)) junk++;
    }
  }
  return junk;
}

/**
 * An error of the hub's own (depth, message array bounds, message limit) in the transport's
 * terms: a JSON-RPC error with no id (it answers the whole request), whose `data` is the
 * ToolRunError the HTTP doors would answer, so a client reads the same errorCode and retry hint.
 */
export function rpcHubError(err: HubError, rpcCode: number, retryAfterSec?: number): string {
  const data: Record<string, unknown> = { ok: false, error: err.message, errorCode: err.code };
  if (retryAfterSec !== undefined) data.retryAfterSec = retryAfterSec;
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: rpcCode, message: err.message, data } });
}
