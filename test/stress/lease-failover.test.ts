import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPIRY_SLACK_MS } from '../../src/limits/decide.js';
import { policyFile } from '../helpers.js';
import { PrivateCluster, redisCli, waitFor } from '../private-cluster.js';
import { PrivateSentinel } from '../private-sentinel.js';
import { type Instance, postJson, startInstance, stopInstance } from '../server-process.js';

/**
 * A client's concurrency slots are leases in Redis (src/limits/lua/includes/admit-lease.lua).
 * A release lost in a master failover used to leak its slot for good under continued
 * traffic (the slot counter's TTL was renewed by every attempt: 429 CONCURRENCY_LIMIT
 * forever). Here the master holding the client's leases is killed under load, round after
 * round, and the client must be served from Redis again within a lease's life, its leases
 * never past the cap, and none left once the load stops.
 */
const TOOL = 'token-counter';
const CAP = 4;
/** More loops than the cap, all from one client (127.0.0.1), so the cap is met. */
const LOOPS = 6;
const ROUNDS = 3;
const TIMEOUT_MS = 2000;
const CAP_WAIT_MS = 200;
/** The rate and budget windows of the policy below. */
const WINDOW_MS = 60_000;
const QUEUE_WAIT_MS = 1000;
/** A lease's life, as src/app.ts computes it. */
const LEASE_MS = 2 * CAP_WAIT_MS + QUEUE_WAIT_MS + 2 * TIMEOUT_MS + 5000;
/** How long a recovery may take on a loaded 2-core machine: a lease's life and a wide margin. */
const RECOVERY_MS = LEASE_MS + 50_000;
/** 200s in a row that count as served again. */
const STREAK = 30;
const KEY = `toolhub:lim:{127.0.0.1}:${TOOL}`;

/** What a round needs of the Redis setup: PrivateCluster and PrivateSentinel both serve. */
interface FailoverStore {
  masterOf(key: string): Promise<number>;
  kill(port: number): Promise<void>;
  waitForFailover(dead: number, key: string): Promise<number>;
  rejoin(port: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Two hubs on `redisEnv`, with a short lease (short cap and queue waits, a short timeout),
 * into `hubs` as each starts (afterAll stops those that did).
 */
async function startHubs(hubs: Instance[], redisEnv: Record<string, string>): Promise<void> {
  const file = await policyFile({
    tools: {
      [TOOL]: {
        limit: 1_000_000,
        windowSec: WINDOW_MS / 1000,
        maxInFlightPerClient: CAP,
        timeoutMs: TIMEOUT_MS,
        computeBudgetMs: 1_000_000_000,
      },
    },
  });
  const env = {
    ...redisEnv,
    POLICY_FILE: file,
    CAP_WAIT_MS: String(CAP_WAIT_MS),
    QUEUE_WAIT_MS: String(QUEUE_WAIT_MS),
    REDIS_COMMAND_TIMEOUT_MS: '1000',
  };
  for (let i = 0; i < 2; i++) hubs.push(await startInstance(env));
}

/** LOOPS loops running the tool as one client, round-robin over the hubs, until stopped. */
class Load {
  /** Every answer's status in order (0: no answer). */
  readonly statuses: number[] = [];
  private running = true;
  private readonly loops: Promise<void>[];

  constructor(bases: string[]) {
    this.loops = Array.from({ length: LOOPS }, async (_, i) => {
      while (this.running) {
        try {
          const res = await postJson(`${bases[i % bases.length]}/api/tools/run/`, {
            toolId: TOOL,
            a: `x${i}`,
          });
          this.statuses.push(res.status);
        } catch {
          this.statuses.push(0);
        }
      }
    });
  }

  /** 200s in a row at the end of the answers from index `from` on. */
  streak(from: number): number {
    let n = 0;
    for (let i = this.statuses.length - 1; i >= from && this.statuses[i] === 200; i--) n++;
    return n;
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}

async function limiterStore(hub: Instance): Promise<string> {
  return ((await (await fetch(`${hub.base}/readyz`)).json()) as { limiterStore: string }).limiterStore;
}

/** The sum of a metric's samples on a hub's /metrics. */
async function metric(hub: Instance, name: string): Promise<number> {
  const text = await (await fetch(`${hub.base}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith(name))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
}

/** The deadlines (Redis server ms) of the client's leases on `master`: the sorted set beside its key. */
async function leaseDeadlines(master: number): Promise<number[]> {
  const reply = (await redisCli(master, 'zrange', `${KEY}:l`, '0', '-1', 'withscores')).trim();
  return reply
    ? reply
        .split('\n')
        .filter((_, i) => i % 2 === 1)
        .map(Number)
    : [];
}

/**
 * The client is served from `master` again: every hub counts in Redis, no release waits
 * for Redis, STREAK runs in a row answered 200, leases were seen in the key, and none of
 * them was taken before `killedAt` (its release lost in the failover: gone at its deadline).
 * The key never holds more than the cap meanwhile. Returns how long it took.
 */
async function expectServed(
  when: string,
  hubs: Instance[],
  load: Load,
  master: number,
  killedAt: number,
): Promise<number> {
  const started = Date.now();
  await waitFor(
    `${when}: every hub counting in Redis`,
    async () => (await Promise.all(hubs.map(limiterStore))).every((s) => s === 'redis'),
    RECOVERY_MS,
  );
  const from = load.statuses.length;
  let most = 0;
  let seen = 0;
  let stale = 0;
  let pending = 0;
  await waitFor(
    () =>
      `${when}: the client served from ${master} (last 200s in a row: ${load.streak(from)}, answers since: ${
        load.statuses.slice(from).length
      }, non-200: ${JSON.stringify(countOthers(load.statuses.slice(from)))}, leases seen: ${seen}, stale: ${stale}, releases pending: ${pending})`,
    async () => {
      const deadlines = await leaseDeadlines(master);
      most = Math.max(most, deadlines.length);
      seen += deadlines.length;
      stale = deadlines.filter((d) => d <= killedAt + LEASE_MS).length;
      pending = (
        await Promise.all(hubs.map((h) => metric(h, 'toolhub_client_lease_releases_pending')))
      ).reduce((a, b) => a + b, 0);
      return load.streak(from) >= STREAK && seen > 0 && stale === 0 && pending === 0;
    },
    RECOVERY_MS,
  );
  expect(most).toBeLessThanOrEqual(CAP);
  return Date.now() - started;
}

/** Statuses other than 200, with how often each came. */
function countOthers(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) if (s !== 200) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

/**
 * ROUNDS times under load: kill the master holding the client's leases, wait for its
 * replica's promotion, expect the client served again, bring the killed node back as a
 * replica. Then stop the load and expect the key to drain.
 */
async function failoverRounds(hubs: Instance[], store: FailoverStore): Promise<void> {
  const load = new Load(hubs.map((h) => h.base));
  const took: string[] = [];
  try {
    await expectServed('before the kills', hubs, load, await store.masterOf(KEY), 0);
    for (let round = 1; round <= ROUNDS; round++) {
      const victim = await store.masterOf(KEY);
      const killedAt = Date.now();
      await store.kill(victim);
      const master = await store.waitForFailover(victim, KEY);
      const promoted = Date.now() - killedAt;
      const served = await expectServed(`round ${round}`, hubs, load, master, killedAt);
      took.push(`round ${round}: promoted after ${promoted} ms, served ${served} ms later`);
      await store.rejoin(victim);
    }
  } finally {
    await load.stop();
  }
  console.info(
    `${took.join('; ')}; ${load.statuses.length} answers, non-200: ${JSON.stringify(countOthers(load.statuses))}`,
  );
  const master = await store.masterOf(KEY);
  // The leases run out by their deadlines: none is alive once the last one's has passed.
  await waitFor(
    `${KEY}:l holds no live lease on ${master}`,
    async () => (await leaseDeadlines(master)).every((deadline) => deadline <= Date.now()),
    LEASE_MS + 30_000,
  );
  // And the key goes by itself: released leases leave an empty set (Redis deletes it), and
  // an entry whose release a failover lost (written to the old master, never replicated)
  // stays, dead, until the set's expiry, which it always has (-1: a set that would never
  // go). That expiry is the counters' when a decision made the set or raised it, and they
  // cover the windows as well as the deadline: at most max(window, lease) + EXPIRY_SLACK_MS
  // past that decision, so now, past the last deadline, at most this much ahead.
  const pttl = Number((await redisCli(master, 'pttl', `${KEY}:l`)).trim());
  expect(pttl, `${KEY}:l has an expiry`).not.toBe(-1);
  expect(pttl).toBeLessThanOrEqual(Math.max(WINDOW_MS - LEASE_MS, 0) + EXPIRY_SLACK_MS);
  for (const hub of hubs) expect(await metric(hub, 'toolhub_client_leases_held')).toBe(0);
}

describe('a client leasing slots across master failovers', () => {
  describe('on a Redis Cluster with replicas', () => {
    const cluster = new PrivateCluster({ replicas: 1 });
    const hubs: Instance[] = [];
    beforeAll(async () => {
      await cluster.start();
      await startHubs(hubs, { REDIS_CLUSTER_NODES: cluster.nodes });
    }, 120_000);
    afterAll(async () => {
      await Promise.all(hubs.map((h) => stopInstance(h)));
      await cluster.stop();
    });

    it(
      'is served again after each kill of the master holding its leases',
      () => failoverRounds(hubs, cluster),
      600_000,
    );
  });

  describe('behind Sentinel', () => {
    const sentinel = new PrivateSentinel();
    const hubs: Instance[] = [];
    beforeAll(async () => {
      await sentinel.start();
      await startHubs(hubs, { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: sentinel.name });
    }, 120_000);
    afterAll(async () => {
      await Promise.all(hubs.map((h) => stopInstance(h)));
      await sentinel.stop();
    });

    it('is served again after each kill of the master', () => failoverRounds(hubs, sentinel), 600_000);
  });
});
