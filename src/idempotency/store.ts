/** An answer kept for its key: what a replay sends again. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What `begin` found for a key. */
export type Begun =
  | { kind: 'new' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'mismatch' }
  | { kind: 'pending' };

/** The record of one key, as stored: the request's fingerprint, and its answer once there is one. */
export interface KeyRecord {
  f: string;
  a?: StoredAnswer;
}

/**
 * Where Idempotency-Keys are kept (docs/api.md, "Idempotency-Key"): Redis when the hub has
 * one (every instance sees every key), else this instance's memory.
 */
export interface IdempotencyStore {
  /** Claims the key for this request (held `pendingMs` at most), or says what it holds. */
  begin(scope: string, fingerprint: string, pendingMs: number): Promise<Begun>;
  /** Keeps the answer for `ttlSec`. */
  complete(scope: string, fingerprint: string, answer: StoredAnswer, ttlSec: number): Promise<void>;
  /** Lets the key go: the request may be sent again and will run (an answer not worth keeping). */
  abandon(scope: string): Promise<void>;
}

/** What a record says to a request with this fingerprint. */
export function judge(record: KeyRecord, fingerprint: string): Begun {
  if (record.f !== fingerprint) return { kind: 'mismatch' };
  return record.a ? { kind: 'replay', answer: record.a } : { kind: 'pending' };
}
