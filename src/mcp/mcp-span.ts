import { isObject } from '../shared/is-object.js';
import { contextFrom, inSpan, SpanKind } from '../telemetry/spans.js';

/** What the /mcp route read of its body (src/plugins/mcp-serve.ts). */
export type McpBody =
  | { kind: 'one'; message: unknown }
  | { kind: 'array'; messages: unknown[] }
  | { kind: 'junk' };

/** A name a span may carry: a method or a tool id as the hub names them; anything else is not echoed. */
const NAME = /^[a-z][a-z0-9/_.-]{0,63}$/i;

/**
 * The span of an MCP message while tracing is on (docs/operations.md, "Traces"), named as
 * the MCP semantic conventions name it (`tools/call token-counter`). A `traceparent` in the
 * message's `params._meta` (MCP 2026-07-28, SEP-414) continues the caller's trace; without
 * one it is a child of the HTTP request's span. A message array is one span, its runs under it.
 */
export function traceMcp<T>(body: McpBody, fn: () => Promise<T>): Promise<T> {
  if (body.kind === 'array') return inSpan('mcp batch', { 'toolhub.mcp.messages': body.messages.length }, fn);
  const message = body.kind === 'one' && isObject(body.message) ? body.message : {};
  const method = typeof message.method === 'string' && NAME.test(message.method) ? message.method : 'unknown';
  const params = isObject(message.params) ? message.params : {};
  const tool =
    method === 'tools/call' && typeof params.name === 'string' && NAME.test(params.name) ? params.name : null;
  const meta = isObject(params._meta) ? params._meta : undefined;
  const attributes = { 'mcp.method.name': method, ...(tool ? { 'gen_ai.tool.name': tool } : {}) };
  return inSpan(tool ? `${method} ${tool}` : method, attributes, fn, {
    parent: contextFrom(meta),
    kind: SpanKind.SERVER,
  });
}
