import cluster from 'node:cluster';
import fp from 'fastify-plugin';
import { processCount } from '../cluster/sizing.js';
import type { ToolPolicy } from '../config/policy.js';
import { Limits } from '../limits/limits.js';
import { LimiterRedis } from '../limits/redis-client.js';
import { LOWERED_DEADLINE_FACTOR } from '../pool/pool.js';
import { EVENTS } from '../shared/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

/** Rate limits, budgets and concurrency caps, on Redis when REDIS_URL is set. */
export default fp(
  async (app) => {
    const { env, redis: target } = app.hubConfig;
    const redis = target ? new LimiterRedis(target, env.REDIS_COMMAND_TIMEOUT_MS) : null;
    // A lease on a client's slot lives as long as its run can: the waits for the tool's cap
    // and for memory, the pool's queue, and a lowered run's wall-time bound, plus the answer.
    const leaseMs = (policy: ToolPolicy) =>
      2 * env.CAP_WAIT_MS + env.QUEUE_WAIT_MS + LOWERED_DEADLINE_FACTOR * policy.timeoutMs + 5000;
    // One of HUB_PROCESSES started by the primary (which resolves `auto` to a number for it):
    // while Redis is away each process admits its share.
    const processes = cluster.isWorker ? processCount(env.HUB_PROCESSES) : 1;
    const limits = new Limits(redis, env.REDIS_PREFIX, env.CAP_WAIT_MS, leaseMs, processes);
    app.decorate('limits', limits);
    app.addHook('onClose', async () => limits.close());
    if (redis) {
      const quiet = EVENTS.limiterState.subscribe(redis, ({ state, reason }) =>
        state === 'down'
          ? app.log.warn(
              { reason },
              'limiter store (Redis) unreachable: counting in-process on the insurance limiter',
            )
          : app.log.warn('limiter store (Redis) is back: counting in Redis again'),
      );
      app.addHook('onClose', async () => quiet());
      // Boot does not wait for Redis: the insurance store serves until it is there.
      await Promise.race([
        new Promise((resolve) => redis.client.once('ready', resolve)),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
      if (redis.client.status !== 'ready') {
        app.log.warn(
          'Redis (REDIS_URL) is not reachable at boot: serving on the in-process insurance limiter until it is',
        );
      }
      app.addHook('onClose', async () => redis.close());
    }
  },
  { name: 'toolhub-limits' },
);
