import type { DecideReply, DecideRequest } from './store.js';

/** Most keys whose last Redis decision an instance keeps; past it the longest unheard is forgotten. */
const MAX_KNOWN = 50_000;

/** What the last Redis decisions on one key said, in this instance's clock. */
export interface Known {
  /** The rate counter after the last count, when its window ends, and the tier whose counter it is. */
  rate?: { tier: string; consumed: number; ends: number };
  /** The budget used before the last run admitted, and when its window ends (none open: 0). */
  budget?: { used: number; ends: number };
  /** Runs and worker ms of the UTC day and month (`dr`, `dm`, `mr`, `mm`) after the last admission, and when. */
  quota?: { counts: readonly [number, number, number, number]; at: number };
}

/**
 * What this instance last heard from Redis of each key (docs/architecture.md, "The
 * insurance"): the counts its in-process insurance starts from when Redis goes away, so an
 * outage is not a fresh window, a fresh budget and a fresh day for every client.
 */
export class LastKnown {
  private readonly keys = new Map<string, Known>();

  get(key: string): Known | undefined {
    return this.keys.get(key);
  }

  /** A Redis decision's reply, at this instance's `now`. */
  learn(r: DecideRequest, reply: DecideReply, now: number): void {
    const k = this.entry(r.key);
    if (r.points > 0) k.rate = { tier: r.policy.tier, consumed: reply[0], ends: now + reply[1] };
    if (r.admit && reply[2] === 1 && reply[6] < 2)
      k.budget = { used: reply[3], ends: reply[4] > 0 ? now + reply[4] : 0 };
    if (reply.length > 10) {
      const q = reply as number[];
      k.quota = { counts: [q[10]!, q[11]!, q[12]!, q[13]!], at: now };
      this.entry(r.quotaKey).quota = { counts: [q[14]!, q[15]!, q[16]!, q[17]!], at: now };
    }
  }

  /** The key's entry, made the most recent (a Map keeps insertion order: the first is the oldest). */
  private entry(key: string): Known {
    let k = this.keys.get(key);
    if (k) this.keys.delete(key);
    else {
      k = {};
      if (this.keys.size >= MAX_KNOWN) this.keys.delete(this.keys.keys().next().value!);
    }
    this.keys.set(key, k);
    return k;
  }
}
