import { ERROR_CODES, ERROR_TABLE } from '../errors.js';

/** Shared pieces of the OpenAPI document: references, the rate-limit headers, the error answers. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });

export const HEADERS = {
  RateLimit: {
    description:
      'IETF RateLimit (draft-ietf-httpapi-ratelimit-headers), a Structured Field list, one item per limit reported, named by its limit name: `"<name>";r=<units left>;t=<seconds until more>` (no `t` for a cap). A refusal by a limit puts that limit first with `r=0` (`"@key/day/runs";r=0;t=22650, "token-counter";r=312;t=41`); a success has the tool\'s rate limit (`"<toolId>"`) and, where quotas apply, the most used one. Limit names: docs/api.md, "Limit names and the RateLimit headers"',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'IETF RateLimit-Policy: every limit that applies to the run, one item each: `"<toolId>";q=<limit + burst>;w=<windowSec>` (rate limit, attempts), `"<toolId>/budget";q=<ms>;qu="worker-ms";w=<windowSec>`, `"<toolId>/cap";q=<n>;qu="concurrent-requests"`, `"<toolId>/instance-cap";q=<n>;qu="concurrent-requests"`, and each quota: `"<toolId or @key>/<day|month>/<runs|computeMs>";q=<n>;w=<seconds of the UTC day or month>` (`qu="worker-ms"` for computeMs)',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: "The tool's rate limit alone: attempts per window, burst included",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: "Attempts left in the rate limit's window, burst included",
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: "Seconds until the rate limit's window resets",
    schema: { type: 'integer' },
  },
  'Retry-After': { description: 'Seconds to wait before retrying (429, 503)', schema: { type: 'integer' } },
  Allow: { description: 'The methods the path takes (405)', schema: { type: 'string' } },
  'x-request-id': {
    description: 'The request id (yours if well-formed, else generated)',
    schema: { type: 'string' },
  },
  ETag: {
    description:
      'Strong validator of the result, on every success of a deterministic tool (docs/api.md, "Result cache and ETags"); send it back in If-None-Match',
    schema: { type: 'string' },
  },
  'Cache-Status': {
    description:
      'RFC 9211: what the result cache did, when it was consulted (the tool has cacheTtlSec > 0 and is deterministic for the input), e.g. `toolhub; hit; ttl=42; detail=shared`, `toolhub; fwd=miss; stored; detail=shared` (stored for every replica; `detail=memory`: in this instance only), `toolhub; fwd=request; stored; detail=memory` (a stored result declined by Cache-Control), `toolhub; fwd=miss; detail=too-large` (not stored, and why), `toolhub; hit; detail=etag` (304)',
    schema: { type: 'string' },
  },
  Age: {
    description: 'Seconds since the result was computed, on an answer from the result cache (RFC 9111)',
    schema: { type: 'integer' },
  },
};

/** The IETF fields alone: what a batch request's answer carries for all its runs (docs/api.md, "Batch runs"). */
export const RATELIMIT_FIELDS = {
  RateLimit: hdr('RateLimit'),
  'RateLimit-Policy': hdr('RateLimit-Policy'),
};

export const RATE_HEADERS = {
  RateLimit: hdr('RateLimit'),
  'RateLimit-Policy': hdr('RateLimit-Policy'),
  'X-RateLimit-Limit': hdr('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': hdr('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': hdr('X-RateLimit-Reset'),
  'x-request-id': hdr('x-request-id'),
};

/** The headers of a run's 304: the rate headers, the ETag and Cache-Status. */
const NOT_MODIFIED_HEADERS = { ...RATE_HEADERS, ETag: hdr('ETag'), 'Cache-Status': hdr('Cache-Status') };

/** The headers of a run's success: those of its 304, and Age on an answer from the cache. */
export const RUN_HEADERS = { ...NOT_MODIFIED_HEADERS, Age: hdr('Age') };

/** The request header that makes a run conditional (docs/api.md, "Result cache and ETags"). */
export const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'ETags of results you hold: when one is the current ETag the answer is 304 with no body and nothing runs (GET and POST alike); it still counts toward the rate limit',
  schema: { type: 'string' },
} as const;

/** A run's 304: the caller's copy is current. */
export const NOT_MODIFIED = {
  description:
    'Not Modified: If-None-Match named the current ETag; nothing ran (counted toward the rate limit)',
  headers: NOT_MODIFIED_HEADERS,
};

/** One reusable response per status of the error table, listing the codes behind it. */
export function errorResponses(): Record<string, unknown> {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODES) {
    for (const s of [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses]) {
      byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
    }
  }
  return Object.fromEntries(
    [...byStatus].map(([status, codes]) => [
      `Error${status}`,
      {
        description: `ToolRunError with errorCode ${codes.join(' or ')}`,
        headers:
          status === 429 || status === 503
            ? { ...RATE_HEADERS, 'Retry-After': hdr('Retry-After') }
            : status === 405
              ? { ...RATE_HEADERS, Allow: hdr('Allow') }
              : RATE_HEADERS,
        content: { 'application/json': { schema: ref('ToolRunError') } },
      },
    ]),
  );
}

export const ERROR_STATUSES = [
  ...new Set(ERROR_CODES.flatMap((c) => [ERROR_TABLE[c].status, ...ERROR_TABLE[c].otherStatuses])),
].sort();

/** The answers of a run: `success` (a schema name) on 200, every status of the error table otherwise. */
export function runResponses(success: string, description = 'The run succeeded'): Record<string, unknown> {
  const out: Record<string, unknown> = {
    200: { description, headers: RUN_HEADERS, content: { 'application/json': { schema: ref(success) } } },
    304: NOT_MODIFIED,
  };
  for (const s of ERROR_STATUSES) out[s] = { $ref: `#/components/responses/Error${s}` };
  return out;
}

/** The request header that steers the result cache (docs/api.md, "Result cache and ETags"). */
export const CACHE_CONTROL = {
  name: 'Cache-Control',
  in: 'header',
  required: false,
  description:
    'RFC 9111 request directives for the result cache: `no-cache` (compute; the result is stored), `no-store` (compute, store nothing), `max-age=N` (no stored result older than N s), `min-fresh=N` (none with less than N s left), `only-if-cached` (a stored result or 504 TIMEOUT, nothing run). A computation counts against every limit like any run; `Pragma: no-cache` is read when Cache-Control is absent',
  schema: { type: 'string' },
} as const;

/** Idempotency-Key (draft-ietf-httpapi-idempotency-key-header): on every POST that runs tools. */
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A key of your choosing (1–255 printable characters, quoted or not): the same key with the same request replays the first answer (status, body, its headers, with `Idempotent-Replayed: true`) without running or charging again; with another request it is 422; while the first is still running, 409 with Retry-After. Kept for IDEMPOTENCY_TTL_SEC (24 h), per caller (docs/api.md, "Idempotency-Key")',
  schema: { type: 'string', minLength: 1, maxLength: 257 },
} as const;

/** `Prefer: respond-async` (RFC 7240) on the generic runtime's and the batch's POST: a job instead. */
export const PREFER_ASYNC = {
  name: 'Prefer',
  in: 'header',
  required: false,
  description:
    '`respond-async`: answered 202 with a job (as POST /api/jobs/ would) and `Preference-Applied: respond-async`; not honoured without the hub\'s Redis (docs/api.md, "Jobs")',
  schema: { type: 'string' },
} as const;

/** The 202 of a POST that `Prefer: respond-async` made a job. */
export const ACCEPTED_AS_JOB = {
  description: 'Accepted as a job (Prefer: respond-async): the job, queued',
  schema: ref('Job'),
  prebuilt: true as const,
  headers: {
    Location: { description: 'The job: /api/jobs/<id>', schema: { type: 'string' } },
    'Preference-Applied': { description: '`respond-async`', schema: { type: 'string' } },
  },
};
