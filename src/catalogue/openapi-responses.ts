import { ERROR_CODES, ERROR_TABLE } from '../errors.js';

/** Shared pieces of the OpenAPI document: references, the rate-limit headers, the error answers. */
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const hdr = (name: string) => ({ $ref: `#/components/headers/${name}` });

export const HEADERS = {
  RateLimit: {
    description: 'IETF RateLimit (draft -11): `"<toolId>";r=<remaining>;t=<seconds>`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'IETF RateLimit-Policy: `"<toolId>";q=<limit>;w=<windowSec>`',
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': { description: 'Runs per window, burst included', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Runs left in the window, burst included',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying (429, 503)', schema: { type: 'integer' } },
  Allow: { description: 'The methods the path takes (405)', schema: { type: 'string' } },
  'x-request-id': {
    description: 'The request id (yours if well-formed, else generated)',
    schema: { type: 'string' },
  },
};

export const RATE_HEADERS = {
  RateLimit: hdr('RateLimit'),
  'RateLimit-Policy': hdr('RateLimit-Policy'),
  'X-RateLimit-Limit': hdr('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': hdr('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': hdr('X-RateLimit-Reset'),
  'x-request-id': hdr('x-request-id'),
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
    200: { description, headers: RATE_HEADERS, content: { 'application/json': { schema: ref(success) } } },
  };
  for (const s of ERROR_STATUSES) out[s] = { $ref: `#/components/responses/Error${s}` };
  return out;
}
