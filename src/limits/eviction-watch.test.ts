import { afterAll, describe, expect, it } from 'vitest';
import { PrivateCluster, redisCli, waitFor } from '../../test/private-cluster.js';
import { PrivateRedis } from '../../test/private-redis.js';
import { EVENTS } from '../shared/events.js';
import { type EvictionState, EvictionWatch, policyNames, policyOf } from './eviction-watch.js';
import { LimiterRedis } from './redis-client.js';

/**
 * The eviction policy of the limiter's Redis, read from INFO memory (docs/operations.md,
 * "Redis and its failure modes") on private redis-servers: at the first read, on a reconnect
 * (not waiting for the periodic read: an hour here), on every master of a Cluster, and again
 * after a read that failed.
 */
const HOUR = 3_600_000;

function watching(redis: LimiterRedis): { watch: EvictionWatch; seen: EvictionState[]; stop: () => void } {
  const watch = new EvictionWatch(redis, HOUR);
  const seen: EvictionState[] = [];
  const quiet = EVENTS.limiterEviction.subscribe(redis, (s) => seen.push(s));
  return {
    watch,
    seen,
    stop: () => {
      quiet();
      watch.stop();
    },
  };
}

describe('policyOf', () => {
  it('reads maxmemory_policy from an INFO memory reply', () => {
    expect(policyOf('# Memory\r\nmaxmemory:0\r\nmaxmemory_policy:allkeys-lru\r\nallocator:x\r\n')).toBe(
      'allkeys-lru',
    );
    expect(policyOf('# Memory\r\nmaxmemory:0\r\n')).toBeUndefined();
  });
});

describe('EvictionWatch on one Redis', () => {
  const priv = new PrivateRedis(['--maxmemory-policy', 'noeviction']);
  let redis: LimiterRedis | undefined;
  let stop = () => {};
  afterAll(async () => {
    stop();
    await redis?.close();
    await priv.stop();
  });

  it('reads the policy, and reads it again on a reconnect', async () => {
    await priv.start();
    redis = new LimiterRedis(priv.url, 1000);
    const w = watching(redis);
    stop = w.stop;
    await waitFor('the connection', async () => redis!.client.status === 'ready');
    await w.watch.check();
    expect(w.watch.state?.evictable).toBe(false);
    expect([...w.watch.state!.policies.values()]).toEqual(['noeviction']);
    expect(w.seen).toHaveLength(1);
    // The same policy read again is no news.
    await w.watch.check();
    expect(w.seen).toHaveLength(1);

    // The policy changes (as a failover onto another node would), then the connection drops.
    await redisCli(priv.port, 'config', 'set', 'maxmemory-policy', 'volatile-ttl');
    await redisCli(priv.port, 'client', 'kill', 'type', 'normal');
    await waitFor('the new policy, read on the reconnect', async () => w.watch.state?.evictable === true);
    expect(policyNames(w.watch.state!)).toBe('volatile-ttl');
    expect(w.seen.map((s) => s.evictable)).toEqual([false, true]);
  });

  it('reads again shortly after a read that failed, without a reconnect', async () => {
    const slow = new PrivateRedis(['--maxmemory-policy', 'allkeys-lru']);
    await slow.start();
    const lr = new LimiterRedis(slow.url, 200);
    try {
      await waitFor('the connection', async () => lr.client.status === 'ready');
      // Made once connected: it reads only when asked, until the retry.
      const w = watching(lr);
      try {
        // Redis holds every client's commands for 3 s: the first read times out, the connection stays.
        await redisCli(slow.port, 'client', 'pause', '3000', 'ALL');
        await w.watch.check();
        expect(w.watch.state).toBeNull();
        await waitFor('the policy, read again', async () => w.watch.state?.evictable === true);
        expect(lr.client.status).toBe('ready');
      } finally {
        w.stop();
      }
    } finally {
      await lr.close();
      await slow.stop();
    }
  });
});

describe('EvictionWatch on a Redis Cluster', () => {
  const cluster = new PrivateCluster();
  let redis: LimiterRedis | undefined;
  let stop = () => {};
  afterAll(async () => {
    stop();
    await redis?.close();
    await cluster.stop();
  });

  it('reads every master, and one that can evict flags the whole', async () => {
    await cluster.start();
    redis = new LimiterRedis(
      { kind: 'cluster', nodes: [{ host: '127.0.0.1', port: cluster.ports[0]! }] },
      1000,
    );
    const w = watching(redis);
    stop = w.stop;
    await waitFor('every master read', async () => {
      await w.watch.check();
      return w.watch.state?.policies.size === 3;
    });
    expect(w.watch.state!.evictable).toBe(false);
    await redisCli(cluster.ports[1]!, 'config', 'set', 'maxmemory-policy', 'allkeys-lru');
    await w.watch.check();
    expect(w.watch.state!.evictable).toBe(true);
    expect(policyNames(w.watch.state!)).toBe('allkeys-lru, noeviction');
    expect([...w.watch.state!.policies.entries()].filter(([, p]) => p === 'allkeys-lru')).toEqual([
      [`127.0.0.1:${cluster.ports[1]}`, 'allkeys-lru'],
    ]);
  }, 120_000);
});
