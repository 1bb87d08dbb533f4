import { describe, expect, it } from 'vitest';
import { redisTarget } from './redis-target.js';

describe('the Redis topology from the environment', () => {
  it('reads one Redis, a Cluster or Sentinel', () => {
    expect(redisTarget({})).toBeNull();
    expect(redisTarget({ REDIS_URL: 'redis://h:6379' })).toEqual({ kind: 'url', url: 'redis://h:6379' });
    expect(redisTarget({ REDIS_CLUSTER_NODES: 'a:7000, b:7001,[::1]:7002' })).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    });
    expect(redisTarget({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'hub' })).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'hub',
    });
  });

  it.each([
    [{ REDIS_URL: 'redis://h', REDIS_CLUSTER_NODES: 'a:1' }, /set one of REDIS_URL, REDIS_CLUSTER_NODES/],
    [{ REDIS_CLUSTER_NODES: 'a' }, /REDIS_CLUSTER_NODES="a": "a" is not host:port/],
    [{ REDIS_CLUSTER_NODES: 'a:99999' }, /is not host:port/],
    [{ REDIS_SENTINELS: 's:26379' }, /needs REDIS_SENTINEL_NAME/],
  ])('stops the boot on %j', (env, message) => {
    expect(() => redisTarget(env)).toThrow(message);
  });
});
