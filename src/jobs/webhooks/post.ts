import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { AddressRefused, checkWebhookUrl, resolveAllowed } from './address-guard.js';

/** What one attempt came to: the receiver's status (after redirects), or why none came. */
export interface AttemptOutcome {
  status?: number;
  /** The receiver's Retry-After, in ms, when it sent one (capped at an hour). */
  retryAfterMs?: number;
  error?: string;
  /** No answer: the attempt ran out of time (`timeout`) or the address was refused (`refused`). */
  failure?: 'timeout' | 'refused';
  durationMs: number;
}

export interface PostOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Resolves and checks each hop's host: resolveAllowed (its tests pass their own first hop). */
  resolve?: typeof resolveAllowed;
}

const MAX_REDIRECTS = 5;
const HOUR_MS = 3_600_000;

/**
 * One delivery attempt: POST the body with its headers, following up to five redirects
 * with the same POST (a webhook's body is its point), each hop's host resolved and checked
 * afresh (src/jobs/webhooks/address-guard.ts), the connection pinned to the checked
 * address. The whole attempt, redirects included, ends at `timeoutMs`.
 */
export async function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: PostOptions,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const done = (o: Omit<AttemptOutcome, 'durationMs'>) => ({
    ...o,
    durationMs: Math.round(performance.now() - started),
  });
  let at = url;
  try {
    for (let hop = 0; ; hop++) {
      const target = checkWebhookUrl(at);
      const addresses = await (opts.resolve ?? resolveAllowed)(target.hostname, opts.allowPrivate);
      const answer = await postOnce(target, addresses, headers, body, signal);
      const location = answer.headers.location;
      answer.resume();
      const status = answer.statusCode ?? 0;
      if (status >= 300 && status < 400 && location) {
        if (hop >= MAX_REDIRECTS) return done({ status, error: `more than ${MAX_REDIRECTS} redirects` });
        at = new URL(location, target).toString();
        continue;
      }
      const retryAfterMs = retryAfterOf(answer.headers['retry-after']);
      return done({ status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
    }
  } catch (err) {
    if (err instanceof AddressRefused) return done({ error: err.message, failure: 'refused' });
    if (signal.aborted) return done({ error: `no answer within ${opts.timeoutMs} ms`, failure: 'timeout' });
    return done({ error: (err as Error).message.slice(0, 300) });
  }
}

function postOnce(
  target: URL,
  addresses: { address: string; family: number }[],
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  // The connection goes to an address resolveAllowed checked: no second lookup to rebind.
  const pinned: LookupFunction = (_host, options, callback) => {
    const all = (options as { all?: boolean }).all;
    if (all) (callback as (e: null, a: typeof addresses) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        lookup: pinned,
        signal,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'tool-hub-webhooks',
        },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Retry-After as ms: delta-seconds or an HTTP-date; capped at an hour; undefined when absent or unreadable. */
export function retryAfterOf(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const seconds = /^\d{1,10}$/.test(value.trim())
    ? Number(value.trim()) * 1000
    : Date.parse(value) - Date.now();
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(Math.max(0, seconds), HOUR_MS);
}
