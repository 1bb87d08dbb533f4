import { decide, type Fields, release } from './decide.js';
import type { DecideReply, DecideRequest, LimitStore, ReleaseRequest } from './store.js';

/** Past this many keys, those whose every window and lease has ended are dropped. */
const SWEEP_AT = 100_000;

/**
 * The in-process limit store: the algorithm of src/limits/decide.ts over one map of keys.
 * It counts for this instance alone: the store without Redis, and the insurance that
 * serves while Redis is away. The clock is injected for the tests.
 */
export class MemoryStore implements LimitStore {
  private readonly keys = new Map<string, Fields>();

  constructor(private readonly now: () => number = Date.now) {}

  decide(r: DecideRequest): Promise<DecideReply> {
    return Promise.resolve(this.decideNow(r));
  }

  /** The same decision without a promise (the in-process path takes no turn). */
  decideNow(r: DecideRequest): DecideReply {
    return decide(this.fields(r.key), r.policy, r.points, r.admit, r.leaseId, this.now());
  }

  release(r: ReleaseRequest): Promise<void> {
    release(this.fields(r.key), r, this.now());
    return Promise.resolve();
  }

  /** A key's fields while it lives (the stores' test compares them with Redis's hash). */
  peek(key: string): ReadonlyMap<string, number> | undefined {
    const h = this.keys.get(key);
    return h && (h.get('x') ?? 0) > this.now() ? h : undefined;
  }

  private fields(key: string): Fields {
    let h = this.keys.get(key);
    if (h && (h.get('x') ?? 0) <= this.now()) h.clear();
    if (!h) {
      h = new Map();
      this.keys.set(key, h);
      if (this.keys.size > SWEEP_AT) this.sweep();
    }
    return h;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, h] of this.keys) if ((h.get('x') ?? 0) <= now) this.keys.delete(key);
  }
}
