import { HubError } from '../errors.js';
import { quote } from '../shared/quote.js';

/** Statuses a request is refused with before it reaches the rate limiter (junk). */
export const JUNK_STATUSES = new Set([400, 401, 404, 405, 408, 413, 415, 417, 431]);

/** The answer to a client past `limit` junk requests a minute, blocked `wait` seconds more. */
export function blockedError(limit: number, wait: number): HubError {
  return new HubError(
    'RATE_LIMITED',
    `too many refused requests from this client (${limit} a minute); fix the requests and retry after ${wait} s`,
    { headers: { 'Retry-After': wait, Connection: 'close' } },
  );
}

/** The answer to a path no route serves (the not-found handler, and a parameter past its length). */
export function noRouteError(method: string, path: string): HubError {
  return new HubError('INVALID_INPUT', `no route ${method} ${quote(path)}`, { status: 404 });
}

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Requests refused per client in a fixed window, so that junk (bodies over the cap,
 * malformed JSON, unknown routes) costs its sender: past `limit` of them the client is
 * answered 429 before its body is read. Hand-written rather than rate-limiter-flexible:
 * it is asked on every request before the body, synchronously, without a promise.
 */
export class JunkCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Seconds until `client` may be answered again, or 0 when it is not blocked. */
  blockedFor(client: string, now = Date.now()): number {
    if (this.limit === 0) return 0;
    const w = this.windows.get(client);
    if (!w || w.resetAt <= now || w.count < this.limit) return 0;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  count(client: string, now = Date.now()): void {
    if (this.limit === 0) return;
    let w = this.windows.get(client);
    if (!w || w.resetAt <= now) {
      if (this.windows.size >= 100_000) this.sweep(now);
      w = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(client, w);
    }
    w.count++;
  }

  /** Drops ended windows so the map cannot grow without bound. */
  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    // Still full of live windows (a spray of addresses): forget the oldest half.
    if (this.windows.size >= 100_000) {
      let drop = this.windows.size / 2;
      for (const k of this.windows.keys()) {
        if (drop-- <= 0) break;
        this.windows.delete(k);
      }
    }
  }
}

/**
 * A run's error codes that come before the rate limiter (the input was wrong, not too frequent):
 * a door that answers them with 200 (an MCP result, a batch item) counts them as junk itself.
 */
export const JUNK_ERROR_CODES: ReadonlySet<string> = new Set([
  'INVALID_INPUT',
  'UNSUPPORTED_OPTION',
  'INPUT_TOO_LARGE',
  'TOOL_WRONG_SURFACE',
]);
