import fp from 'fastify-plugin';
import { EvictionWatch, policyNames } from '../limits/eviction-watch.js';
import { EVENTS } from '../shared/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The eviction policy of the limiter's Redis as last read; null without Redis. */
    limiterEviction: EvictionWatch | null;
  }
}

/**
 * Watches the eviction policy of the limiter's Redis (docs/operations.md, "Redis and its
 * failure modes"): every limiter key has a TTL, so any policy but noeviction can evict one,
 * and a client whose key is evicted starts its window afresh. Such a policy is logged (here),
 * counted (`toolhub_limiter_redis_evictable`), shown on /readyz and keeps the result cache
 * off that Redis. The hub does not refuse to start on it: the policy is known only once Redis
 * answers, which the boot does not wait for, and a failover can change it at any time.
 */
export default fp(
  async (app) => {
    const redis = app.limits.redis;
    if (!redis) {
      app.decorate('limiterEviction', null);
      return;
    }
    const watch = new EvictionWatch(redis);
    app.decorate('limiterEviction', watch);
    let said: string | undefined;
    const quiet = EVENTS.limiterEviction.subscribe(redis, (state) => {
      const names = policyNames(state);
      const line = `${state.evictable}:${names}`;
      // One line per change of policy, not per node address (a failover moves the address).
      if (line === said) return;
      const first = said === undefined;
      said = line;
      const policies = Object.fromEntries(state.policies);
      if (state.evictable) {
        app.log.warn(
          { policies },
          `the limiter's Redis has maxmemory-policy ${names}: it can evict limit keys (each has a TTL), and a client whose key is evicted starts its window afresh, past its limit. Set maxmemory-policy noeviction on it, with maxmemory sized for the limits (docs/operations.md, "Redis and its failure modes")`,
        );
      } else if (!first) {
        app.log.warn(
          { policies },
          `the limiter's Redis has maxmemory-policy ${names} again: limit keys are not evicted`,
        );
      }
    });
    app.addHook('onClose', async () => {
      quiet();
      watch.stop();
    });
    // Read once before the boot goes on (the limits plugin has waited for Redis, at most 2 s),
    // so the result cache starts from a known policy; a Redis not there yet is read on 'ready'.
    if (redis.client.status === 'ready') await watch.check();
  },
  { name: 'toolhub-limiter-eviction', dependencies: ['toolhub-limits'] },
);
