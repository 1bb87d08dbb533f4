import type { DecideReply, DecideRequest } from './store.js';

/** Most keys whose last Redis decision an instance keeps; past it the longest unheard is forgotten. */
const MAX_KNOWN = 50_000;

/**
 * What the last Redis decisions on one key said, in this instance's clock (one record per key,
 * changed in place: a busy client's decisions allocate nothing here).
 */
export interface Known {
  /** The tier whose rate counter `consumed` is ('' without one; null: no count heard). */
  tier: string | null;
  /** The rate counter after the last count, and when its window ends. */
  consumed: number;
  rateEnds: number;
  /** The budget used before the last run admitted, and when its window ends (0: none open or none heard). */
  budgetUsed: number;
  budgetEnds: number;
  /** Runs and worker ms of the UTC day and month (`dr`, `dm`, `mr`, `mm`) after the last admission, and when (0: none heard). */
  quota: [number, number, number, number];
  quotaAt: number;
}

/**
 * What this instance last heard from Redis of each key (docs/architecture.md, "The
 * insurance"): the counts its in-process insurance starts from when Redis goes away, so an
 * outage is not a fresh window, a fresh budget and a fresh day for every client. Bounded: past
 * MAX_KNOWN keys the oldest heard of first is forgotten (a client heard of again moves on only
 * when it was forgotten: insertion order, kept cheap on the hot path).
 */
export class LastKnown {
  private readonly keys = new Map<string, Known>();

  get(key: string): Known | undefined {
    return this.keys.get(key);
  }

  /** A Redis decision's reply, at this instance's `now`. */
  learn(r: DecideRequest, reply: DecideReply, now: number): void {
    const k = this.entry(r.key);
    if (r.points > 0) {
      k.tier = r.policy.tier;
      k.consumed = reply[0];
      k.rateEnds = now + reply[1];
    }
    if (r.admit && reply[2] === 1 && reply[6] < 2) {
      k.budgetUsed = reply[3];
      k.budgetEnds = reply[4] > 0 ? now + reply[4] : 0;
    }
    if (reply.length > 10) {
      const q = reply as number[];
      setQuota(k, q, 10, now);
      setQuota(this.entry(r.quotaKey), q, 14, now);
    }
  }

  private entry(key: string): Known {
    let k = this.keys.get(key);
    if (!k) {
      if (this.keys.size >= MAX_KNOWN) this.keys.delete(this.keys.keys().next().value!);
      k = {
        tier: null,
        consumed: 0,
        rateEnds: 0,
        budgetUsed: 0,
        budgetEnds: 0,
        quota: [0, 0, 0, 0],
        quotaAt: 0,
      };
      this.keys.set(key, k);
    }
    return k;
  }
}

function setQuota(k: Known, reply: readonly number[], from: number, now: number): void {
  for (let j = 0; j < 4; j++) k.quota[j] = reply[from + j]!;
  k.quotaAt = now;
}
