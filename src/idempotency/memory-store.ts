import { type Begun, type IdempotencyStore, judge, type KeyRecord, type StoredAnswer } from './store.js';

interface Entry {
  record: KeyRecord;
  expires: number;
  bytes: number;
}

/**
 * Idempotency-Keys in this instance's memory (no Redis: one instance), at most `maxBytes` of
 * kept answers: past that the oldest keys go first (Map order is insertion order).
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  async begin(scope: string, fingerprint: string, pendingMs: number): Promise<Begun> {
    const found = this.live(scope);
    if (found) return judge(found.record, fingerprint);
    this.put(scope, { f: fingerprint }, pendingMs);
    return { kind: 'new' };
  }

  async complete(scope: string, fingerprint: string, answer: StoredAnswer, ttlSec: number): Promise<void> {
    this.put(scope, { f: fingerprint, a: answer }, ttlSec * 1000);
  }

  async abandon(scope: string): Promise<void> {
    this.drop(scope);
  }

  private live(scope: string): Entry | undefined {
    const entry = this.entries.get(scope);
    if (entry && entry.expires <= this.now()) {
      this.drop(scope);
      return undefined;
    }
    return entry;
  }

  private put(scope: string, record: KeyRecord, ttlMs: number): void {
    this.drop(scope);
    const bytes = 200 + (record.a ? record.a.body.length + JSON.stringify(record.a.headers).length : 0);
    this.entries.set(scope, { record, expires: this.now() + ttlMs, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes || oldest === scope) break;
      this.drop(oldest);
    }
  }

  private drop(scope: string): void {
    const entry = this.entries.get(scope);
    if (!entry) return;
    this.entries.delete(scope);
    this.bytes -= entry.bytes;
  }
}
