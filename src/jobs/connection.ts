import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisTarget } from '../config/redis-target.js';

/**
 * A Redis connection for BullMQ (docs/operations.md, "Jobs"): its own, apart from the
 * limiter's, whose options (no offline queue, no retries, short timeouts) suit a limiter
 * that falls back in milliseconds, where a queue must wait for its Redis and retry.
 * BullMQ's workers block on their connection: `maxRetriesPerRequest: null`, as it asks.
 */
export function jobsConnection(target: RedisTarget): Redis | Cluster {
  const options: RedisOptions = {
    maxRetriesPerRequest: null,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * times, 2000),
  };
  const client =
    target.kind === 'cluster'
      ? new Cluster(target.nodes, { redisOptions: options })
      : target.kind === 'sentinel'
        ? new Redis({ ...options, sentinels: target.sentinels, name: target.name })
        : new Redis(target.url, options);
  // Health is read from the queue's answers; without a listener ioredis prints every reconnect.
  client.on('error', () => {});
  return client;
}

/**
 * BullMQ's key prefix: one hash tag, so that a job's keys and its queue's lists share a
 * Cluster slot (BullMQ's scripts touch several at once).
 */
export function jobsPrefix(redisPrefix: string): string {
  return `{${redisPrefix}jobs}`;
}
