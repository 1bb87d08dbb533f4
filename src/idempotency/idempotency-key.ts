import { createHash } from 'node:crypto';
import { HubError } from '../errors.js';

/** The longest key taken: the draft leaves it to the server; UUIDs and ULIDs fit many times over. */
export const KEY_MAX = 255;

/**
 * The `Idempotency-Key` header (draft-ietf-httpapi-idempotency-key-header-06): a Structured
 * Field String (`"…"`), or the bare value most clients send (Stripe's form). 1–255 printable
 * ASCII characters; anything else is 400. Undefined when the header is absent.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header))
    throw new HubError('INVALID_INPUT', 'send one Idempotency-Key header, not several');
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(header.trim());
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : header.trim();
  if (key.length === 0 || key.length > KEY_MAX || !/^[\x20-\x7e]+$/.test(key)) {
    throw new HubError(
      'INVALID_INPUT',
      `Idempotency-Key must be 1 to ${KEY_MAX} printable ASCII characters (a UUID is a good one)`,
    );
  }
  return key;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Where a key's record lives: per caller, so that two callers' equal keys never meet. */
export function scopeOf(client: string, key: string): string {
  return sha256(`${client}\n${key}`);
}

/** What makes two requests "the same request" (the draft's fingerprint): method, path and query, body. */
export function fingerprintOf(method: string, url: string, body: unknown): string {
  return sha256(`${method} ${url}\n${body === undefined ? '' : JSON.stringify(body)}`);
}
