import fp from 'fastify-plugin';
import type { ToolPolicy } from '../config/policy.js';
import type { RedisTarget } from '../config/redis-target.js';
import { Limits } from '../limits/limits.js';
import { LimiterRedis } from '../limits/redis-client.js';
import { EVENTS } from '../shared/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    limits: Limits;
  }
}

export interface LimitsOptions {
  /** null: in-process stores. */
  redis: RedisTarget | null;
  prefix: string;
  commandTimeoutMs: number;
  /** Longest wait for a slot under the per-client or per-tool cap (CAP_WAIT_MS). */
  capWaitMs: number;
  /** A lease's life unless released: the longest a run can live in the hub. */
  leaseMs: (policy: ToolPolicy) => number;
  /** The box's API processes (HUB_PROCESSES; 1 alone): while Redis is away each admits its share. */
  processes: number;
}

/** Rate limits, budgets and concurrency caps, on Redis when REDIS_URL is set. */
export default fp<LimitsOptions>(
  async (app, opts) => {
    const redis = opts.redis ? new LimiterRedis(opts.redis, opts.commandTimeoutMs) : null;
    const limits = new Limits(redis, opts.prefix, opts.capWaitMs, opts.leaseMs, opts.processes);
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
