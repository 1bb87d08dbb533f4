import type { RunResult, RunSuccess } from '../run/run-types.js';
import { isObject } from '../shared/is-object.js';

/** MCP's CallToolResult, as far as the hub fills it. */
export interface CallResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: true;
  _meta?: Record<string, unknown>;
}

/**
 * A run's result as an MCP tool result (docs/api.md, "MCP for agents"). Success: the
 * result as `structuredContent` plus the same JSON as a text block, the `runtime` block in
 * `_meta`, with `_meta.cache`: what the result cache did and the result's ETag, the same as
 * HTTP's Cache-Status and ETag (docs/api.md, "Result cache and ETags"). A refusal is a result too, with `isError: true` (so the model can correct
 * itself), never a protocol error, and without `structuredContent`: clients validate
 * `structuredContent` against the tool's `outputSchema` whenever it is present (the 1.x
 * SDK throws -32602 on an error object there), so the ToolRunError (`errorCode`, `error`,
 * `retryAfterSec`, `rateLimit`, `runtime`) travels as the text block's JSON, which the
 * model reads, and as `_meta.error`, which a program reads. Once the limits were checked,
 * success or not, `_meta.rateLimitFields` carries what HTTP's RateLimit headers say; a
 * success carries its `rateLimit` block in `_meta`, as an item of a batch request's answer does in its body.
 */
export function toCallResult(result: RunResult): CallResult {
  if (result.ok) {
    const structured = JSON.parse(result.resultJson) as unknown;
    const structuredContent = isObject(structured) ? structured : { result: structured };
    return {
      content: [{ type: 'text', text: result.resultJson }],
      structuredContent,
      _meta: successMeta(result),
    };
  }
  const e = result.error;
  const retryAfter = e.headers['Retry-After'];
  const body: Record<string, unknown> = { ok: false, error: e.message, errorCode: e.code };
  if (e.reason) body.reason = e.reason;
  if (retryAfter !== undefined) body.retryAfterSec = Number(retryAfter);
  if (e.rateLimit) body.rateLimit = e.rateLimit;
  if (e.runtime) body.runtime = e.runtime;
  const meta: Record<string, unknown> = e.runtime ? { error: body, runtime: e.runtime } : { error: body };
  if (e.headers.RateLimit !== undefined) meta.rateLimitFields = rateLimitFields(e.headers);
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true, _meta: meta };
}

/**
 * `_meta.rateLimitFields`: the IETF RateLimit and RateLimit-Policy fields as HTTP sends them
 * (docs/api.md, "Limit names and the RateLimit headers"), so an MCP client reads every limit
 * of the run and what is left of each, as an HTTP client does.
 */
function rateLimitFields(headers: Record<string, string | number>): Record<string, string> {
  return { RateLimit: String(headers.RateLimit), 'RateLimit-Policy': String(headers['RateLimit-Policy']) };
}

/** `_meta` of a success: its `runtime` block, the cache outcome, its `rateLimit` block and fields. */
export function successMeta(result: RunSuccess): Record<string, unknown> {
  return {
    runtime: result.meta,
    cache: cacheMeta(result),
    rateLimit: result.rate.info,
    rateLimitFields: rateLimitFields(result.rate.headers),
  };
}

/** `_meta.cache` of a success: the cache outcome and, for a deterministic run, its ETag. */
function cacheMeta(result: RunSuccess): Record<string, unknown> {
  return result.etag ? { ...result.cache, etag: result.etag } : { ...result.cache };
}
