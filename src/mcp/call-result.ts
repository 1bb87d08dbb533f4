import type { RunResult } from '../run/run-types.js';

/** MCP's CallToolResult, as far as the hub fills it. */
export interface CallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: true;
  _meta?: Record<string, unknown>;
}

/**
 * A run's result as an MCP tool result. Success: the result as `structuredContent` plus
 * the same JSON as a text block. A refusal is a result too, with `isError: true` (so the
 * model can correct itself), never a protocol error: `structuredContent` carries the
 * ToolRunError (`errorCode`, `error`, `retryAfterSec` and `rateLimit` where there are),
 * since MCP clients do not read HTTP 429 or Retry-After. The `runtime` block goes in `_meta`.
 */
export function toCallResult(result: RunResult): CallResult {
  if (result.ok) {
    const structured = JSON.parse(result.resultJson) as unknown;
    const structuredContent = isObject(structured) ? structured : { result: structured };
    return {
      content: [{ type: 'text', text: result.resultJson }],
      structuredContent,
      _meta: { runtime: result.meta },
    };
  }
  const e = result.error;
  const retryAfter = e.headers['Retry-After'];
  const body: Record<string, unknown> = { ok: false, error: e.message, errorCode: e.code };
  if (retryAfter !== undefined) body.retryAfterSec = Number(retryAfter);
  if (e.rateLimit) body.rateLimit = e.rateLimit;
  if (e.runtime) body.runtime = e.runtime;
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: true,
    ...(e.runtime ? { _meta: { runtime: e.runtime } } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
