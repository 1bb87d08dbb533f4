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

describe("the result cache's own Redis", () => {
  it('reads the same three forms under CACHE_, apart from the limiter’s', () => {
    const env = { REDIS_URL: 'redis://limits:6379', CACHE_REDIS_URL: 'redis://cache:6379' };
    expect(redisTarget(env)).toEqual({ kind: 'url', url: 'redis://limits:6379' });
    expect(redisTarget(env, 'CACHE_')).toEqual({ kind: 'url', url: 'redis://cache:6379' });
    expect(redisTarget({ REDIS_URL: 'redis://limits:6379' }, 'CACHE_')).toBeNull();
    expect(redisTarget({ CACHE_REDIS_CLUSTER_NODES: 'c:7000' }, 'CACHE_')).toEqual({
      kind: 'cluster',
      nodes: [{ host: 'c', port: 7000 }],
    });
    expect(
      redisTarget({ CACHE_REDIS_SENTINELS: 's:26379', CACHE_REDIS_SENTINEL_NAME: 'cache' }, 'CACHE_'),
    ).toEqual({ kind: 'sentinel', sentinels: [{ host: 's', port: 26379 }], name: 'cache' });
  });

  it.each([
    [
      { CACHE_REDIS_URL: 'redis://h', CACHE_REDIS_SENTINELS: 's:1' },
      /set one of CACHE_REDIS_URL, .*CACHE_REDIS_SENTINELS/,
    ],
    [{ CACHE_REDIS_CLUSTER_NODES: 'c' }, /CACHE_REDIS_CLUSTER_NODES="c": "c" is not host:port/],
    [{ CACHE_REDIS_SENTINELS: 's:26379' }, /CACHE_REDIS_SENTINELS needs CACHE_REDIS_SENTINEL_NAME/],
  ])('stops the boot on %j', (env, message) => {
    expect(() => redisTarget(env, 'CACHE_')).toThrow(message);
  });
});
