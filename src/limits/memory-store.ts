import { decide, release, type State } from './decide.js';
import { renew } from './renew.js';
import { settle } from './settle.js';
import type {
  DecideReply,
  DecideRequest,
  LimitStore,
  ReleaseRequest,
  RenewRequest,
  SettleRequest,
  UsageReply,
} from './store.js';
import { readUsage } from './usage.js';

/** Past this many keys, those whose every window and lease has ended are dropped. */
const SWEEP_AT = 100_000;

/**
 * The in-process limit store: the algorithm of src/limits/decide.ts over one map of states.
 * It counts for this instance alone: the store without Redis, and the insurance that
 * serves while Redis is away. The clock is injected for the tests.
 */
export class MemoryStore implements LimitStore {
  private readonly states = new Map<string, State>();

  constructor(private readonly now: () => number = Date.now) {}

  decide(r: DecideRequest): Promise<DecideReply> {
    return Promise.resolve(this.decideNow(r));
  }

  /** The same decision without a promise (the in-process path takes no turn). */
  decideNow(r: DecideRequest): DecideReply {
    const quota = () => this.state(r.quotaKey);
    return decide(this.state(r.key), r.policy, r.points, r.admit, r.leaseId, this.now(), quota);
  }

  release(r: ReleaseRequest): Promise<void> {
    release(this.state(r.key), r, this.now(), () => this.state(r.quotaKey));
    return Promise.resolve();
  }

  renew(r: RenewRequest): Promise<void> {
    renew(this.state(r.key), r, this.now(), () => this.state(r.quotaKey));
    return Promise.resolve();
  }

  settle(r: SettleRequest): Promise<void> {
    settle(this.state(r.key), r, this.now(), () => this.state(r.quotaKey));
    return Promise.resolve();
  }

  /** What a client has used of a tool's limits (or, on a quota key, of its quotas), read without counting. */
  usageNow(key: string, tier: string): UsageReply {
    return readUsage(this.peek(key), tier, this.now());
  }

  usage(key: string, tier: string): Promise<UsageReply> {
    return Promise.resolve(this.usageNow(key, tier));
  }

  /** Starts a key afresh from `counters` (the insurance's seed: src/limits/insurance.ts). */
  seed(key: string, counters: Map<string, number>): void {
    this.states.set(key, { counters, leases: new Map(), leasesExpireAt: 0 });
  }

  /** A key's state while it lives, removed from the store (the insurance hands it to Redis). */
  take(key: string): State | undefined {
    const s = this.peek(key);
    this.states.delete(key);
    return s;
  }

  /** A key's state while it lives (the stores' test compares it with Redis's keys). */
  peek(key: string): State | undefined {
    const s = this.states.get(key);
    return s && (s.counters.get('x') ?? 0) > this.now() ? s : undefined;
  }

  private state(key: string): State {
    let s = this.states.get(key);
    if (s && (s.counters.get('x') ?? 0) <= this.now()) s.counters.clear();
    if (!s) {
      s = { counters: new Map(), leases: new Map(), leasesExpireAt: 0 };
      this.states.set(key, s);
      if (this.states.size > SWEEP_AT) this.sweep();
    }
    return s;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, s] of this.states) if ((s.counters.get('x') ?? 0) <= now) this.states.delete(key);
  }
}
