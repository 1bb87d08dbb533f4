import { leasesKey } from './keys.js';
import type { LimiterRedis } from './redis-client.js';
import type { DecideReply, DecideRequest, LimitStore, ReleaseRequest, StorePolicy } from './store.js';
import { TurnQueue } from './turn-queue.js';

/** Most decisions sent in one script call. */
const MAX_PER_CALL = 256;

/**
 * The Redis limit store: decide.lua and release.lua (src/limits/lua/). The decisions of one
 * event-loop turn leave as one script call per kind (src/limits/turn-queue.ts): every
 * request that arrived in the turn shares one write and one reply. A script call names only
 * declared keys, two per decision (its counters and its leases, in one hash slot); on a Redis
 * Cluster, where a call's keys must share a slot, each call carries one decision, through
 * the same script.
 */
export class RedisStore implements LimitStore {
  private readonly decisions: TurnQueue<DecideRequest, DecideReply>;
  private readonly releases: TurnQueue<ReleaseRequest, undefined>;

  /** `now`: the clock the scripts count by; 0 (the default) is Redis's own (TIME). */
  constructor(redis: LimiterRedis, now: () => number = () => 0) {
    const perCall = redis.cluster ? 1 : MAX_PER_CALL;
    this.decisions = new TurnQueue(perCall, async (reqs) => {
      const policies = new Map<StorePolicy, number>();
      const head: (string | number)[] = [now(), 0];
      const args: (string | number)[] = [];
      for (const r of reqs) {
        let index = policies.get(r.policy);
        if (index === undefined) {
          index = policies.size;
          policies.set(r.policy, index);
          const p = r.policy;
          head.push(p.tier, p.limit, p.burst, p.windowMs, p.budgetMs, p.cap, p.leaseMs);
        }
        args.push(index, r.points, r.admit ? 1 : 0, r.leaseId);
      }
      head[1] = policies.size;
      const keys = reqs.flatMap((r) => [r.key, leasesKey(r.key)]);
      return split(
        await redis.client.toolhubDecide(keys.length, ...keys, ...head, ...args),
        6,
      ) as DecideReply[];
    });
    this.releases = new TurnQueue(perCall, async (reqs) => {
      const keys = reqs.flatMap((r) => [r.key, leasesKey(r.key)]);
      const args = reqs.flatMap((r) => [r.leaseId, r.chargedMs, r.windowMs]);
      await redis.client.toolhubRelease(keys.length, ...keys, now(), ...args);
      return reqs.map(() => undefined);
    });
  }

  decide(request: DecideRequest): Promise<DecideReply> {
    return this.decisions.push(request);
  }

  async release(request: ReleaseRequest): Promise<void> {
    await this.releases.push(request);
  }
}

/** A flat script reply cut into one tuple per request. */
function split(flat: number[], width: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < flat.length; i += width) out.push(flat.slice(i, i + width));
  return out;
}
