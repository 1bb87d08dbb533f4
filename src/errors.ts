import type { RunMeta } from './run-meta.js';
import type { ErrorReason } from './shared/envelope.js';
import { boundMessage } from './shared/quote.js';

/**
 * Every error code of the hub, declared once with its HTTP status (docs/api.md, "Errors").
 * The error handler, the table in docs/api.md and the OpenAPI document all read this
 * table; test/docs.test.ts fails when the docs drift from it.
 */
export const ERROR_TABLE = {
  INVALID_INPUT: {
    status: 400,
    otherStatuses: [401, 404, 409, 415, 417, 422],
    when: 'missing or ill-typed field, unknown toolId, bad `source`, unparseable input or path (unknown route or job: 404; cancelling a finished job: 409; wrong content type or a compressed body: 415; an `Expect` other than 100-continue: 417; an `Idempotency-Key` reused with another request: 422; API keys on and the key missing or unknown: 401 with `WWW-Authenticate: Bearer`)',
  },
  UNSUPPORTED_OPTION: {
    status: 400,
    otherStatuses: [],
    when: 'a `mode` or option value the tool does not support; the message lists the supported values',
  },
  TOOL_WRONG_SURFACE: {
    status: 400,
    otherStatuses: [405],
    when: 'the tool is not callable on this surface: runtime surface switched off (400, names the dedicated path) or a method the endpoint does not take (405, with `Allow`)',
  },
  INPUT_TOO_LARGE: {
    status: 413,
    otherStatuses: [431],
    when: "tool input over the tool's `inputMaxBytes`, or the HTTP body over the hard cap (request headers over Node's limit: 431)",
  },
  RATE_LIMITED: {
    status: 429,
    otherStatuses: [],
    when: 'the per-client, per-tool rate limit is spent; `Retry-After` says when it refills',
  },
  BUDGET_EXCEEDED: {
    status: 429,
    otherStatuses: [],
    when: "the client's compute budget for the tool is spent (429, `Retry-After`), or a run passed the worker heap or result-size limit",
  },
  CONCURRENCY_LIMIT: {
    status: 429,
    otherStatuses: [409, 503],
    when: 'per-tool or per-client cap on runs in flight, or the memory share of the client (429); the instance is full: queue full, queue wait past its bound or its memory budget in use (503); the first request with the same `Idempotency-Key` is still running (409). All with `Retry-After`',
  },
  TIMEOUT: {
    status: 504,
    otherStatuses: [408],
    when: "the run passed the tool's `timeoutMs` of execution; its worker was terminated (408: the request itself did not arrive within `REQUEST_TIMEOUT_MS`); also `Cache-Control: only-if-cached` with no stored result to answer, when nothing ran (the message starts `only-if-cached:`)",
  },
  INTERNAL_ERROR: {
    status: 500,
    otherStatuses: [],
    when: 'a bug; the message is generic, details are only in the log',
  },
  RUNTIME_DISABLED: {
    status: 503,
    otherStatuses: [],
    when: 'the operator switched every tool run off (RUNTIME_ENABLED), or jobs are asked of a hub without Redis',
  },
  TOOL_DISABLED: {
    status: 503,
    otherStatuses: [],
    when: 'the operator switched this tool off',
  },
} as const satisfies Record<string, { status: number; otherStatuses: readonly number[]; when: string }>;

export type ErrorCode = keyof typeof ERROR_TABLE;
export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

export interface RateLimitInfo {
  limit: number;
  burst: number;
  windowSec: number;
  remaining: number;
  resetMs: number;
  retryAfterSec: number;
  /** On a refusal by the limiter: which limit refused (docs/api.md, "Quotas"). */
  scope?: 'rate' | 'budget' | 'concurrency' | 'quota';
  /** On a refusal by the limiter: the limit name of the one that refused (docs/api.md, "Limit names and the RateLimit headers"). */
  limitName?: string;
  /** On a quota refusal: the quota that is used up. */
  quota?: QuotaInfo;
  /** A pipeline's answer: the runs it spent, one a step started (docs/api.md, "Pipelines"). */
  runs?: number;
}

/** A quota that refused a run: whose, which window, what it counts, and when it starts again. */
export interface QuotaInfo {
  per: 'tool' | 'key';
  window: 'day' | 'month';
  kind: 'runs' | 'computeMs';
  limit: number;
  used: number;
  /** A quota of worker ms that runs in flight fill: the ms they reserve until they end. */
  reservedMs?: number;
  /** The window's end: the next UTC midnight, or the first of the next month. */
  resetAt: string;
}

export interface HubErrorOptions {
  status?: number;
  /** Why, where the code alone does not say: `memory`, `resultSize`, `network` (docs/api.md). */
  reason?: ErrorReason;
  headers?: Record<string, string | number>;
  rateLimit?: RateLimitInfo;
  runtime?: RunMeta;
  /** Logged, never sent to the client. */
  cause?: unknown;
}

/** The one error type the API process throws; the error handler renders it as a ToolRunError. */
export class HubError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string | number>;
  rateLimit: RateLimitInfo | undefined;
  runtime: RunMeta | undefined;
  readonly reason: ErrorReason | undefined;

  constructor(code: ErrorCode, message: string, opts: HubErrorOptions = {}) {
    super(boundMessage(message), opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'HubError';
    this.code = code;
    const entry = ERROR_TABLE[code];
    const status = opts.status ?? entry.status;
    if (status !== entry.status && !(entry.otherStatuses as readonly number[]).includes(status)) {
      throw new Error(`status ${status} is not declared for ${code}`);
    }
    this.status = status;
    this.headers = opts.headers ?? {};
    this.rateLimit = opts.rateLimit;
    this.runtime = opts.runtime;
    this.reason = opts.reason;
  }
}

/** The ToolRunError body of an error (every surface that answers over HTTP renders it so). */
export function errorJson(err: HubError): string {
  const body: Record<string, unknown> = { ok: false, error: err.message, errorCode: err.code };
  if (err.reason) body.reason = err.reason;
  if (err.rateLimit) body.rateLimit = err.rateLimit;
  if (err.runtime) body.runtime = err.runtime;
  return JSON.stringify(body);
}

/** Renders the README's error table from ERROR_TABLE (the README embeds exactly this text). */
export function errorTableMarkdown(): string {
  const rows = ERROR_CODES.map((code) => {
    const e = ERROR_TABLE[code];
    const statuses = [e.status, ...e.otherStatuses].join(' / ');
    return `| ${code} | ${statuses} | ${e.when} |`;
  });
  return ['| errorCode | HTTP status | when |', '|---|---|---|', ...rows].join('\n');
}
