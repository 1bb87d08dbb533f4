import { isDeepStrictEqual } from 'node:util';
import fp from 'fastify-plugin';
import { ResultCache } from '../cache/result-cache.js';
import { policyNames } from '../limits/eviction-watch.js';
import { LimiterRedis } from '../limits/redis-client.js';
import { EVENTS } from '../shared/events.js';

/** The shared layer now, for /readyz: in use, none (in-process only), or its Redis away. */
export type SharedLayerState = 'shared' | 'in-process' | 'degraded';

declare module 'fastify' {
  interface FastifyInstance {
    resultCache: ResultCache;
    resultCacheState: () => SharedLayerState;
  }
}

const OWN_REDIS = 'CACHE_REDIS_URL (or CACHE_REDIS_CLUSTER_NODES, CACHE_REDIS_SENTINELS)';

/**
 * `app.resultCache` (docs/operations.md, "Result cache"): its shared layer on a Redis of its
 * own, on a connection and a breaker of its own, so a cache failure never trips the
 * limiter's. Without a Redis of its own it may use the limiter's, but only while that one's
 * eviction policy is read as noeviction: under any other, results stored there would push
 * limit keys out. Until then, and with neither Redis, it caches in-process only.
 */
export default fp(
  async (app) => {
    const { env, cacheRedis, redis: limiter } = app.hubConfig;
    // CACHE_SHARED false keeps the in-process layer only.
    const own = cacheRedis && !isDeepStrictEqual(cacheRedis, limiter) ? cacheRedis : null;
    const target = env.CACHE_SHARED ? (own ?? limiter) : null;
    const redis = target ? new LimiterRedis(target, env.REDIS_COMMAND_TIMEOUT_MS) : null;
    const watch = app.limiterEviction;
    const onLimiter = redis !== null && own === null;
    const allowed = onLimiter ? () => watch?.state?.evictable === false : () => true;
    app.decorate(
      'resultCache',
      new ResultCache({
        redis,
        sharedAllowed: allowed,
        prefix: env.REDIS_PREFIX,
        maxEntryBytes: env.CACHE_MAX_ENTRY_BYTES,
        memoryBytes: env.CACHE_MEMORY_BYTES,
      }),
    );
    app.decorate('resultCacheState', () =>
      redis === null || !allowed() ? 'in-process' : redis.degraded ? 'degraded' : 'shared',
    );
    if (!env.CACHE_SHARED && cacheRedis) app.log.warn(`CACHE_SHARED is false: ${OWN_REDIS} is not used`);
    if (!redis) return;
    const quiet = [
      EVENTS.limiterState.subscribe(redis, ({ state, reason }) =>
        state === 'down'
          ? app.log.warn(
              { reason },
              "result cache's Redis unreachable: caching in-process only until it answers",
            )
          : app.log.warn("result cache's Redis is back: sharing results through it again"),
      ),
    ];
    if (onLimiter && watch) {
      let evictable: boolean | undefined;
      const say = (state: { policies: ReadonlyMap<string, string>; evictable: boolean }) => {
        if (state.evictable === evictable) return;
        evictable = state.evictable;
        if (state.evictable) {
          app.log.warn(
            `result cache: in-process only: the limiter's Redis (maxmemory-policy ${policyNames(state)}) can evict, and results stored there would push limit keys out. Set ${OWN_REDIS} to a Redis of its own with maxmemory and allkeys-lru, or maxmemory-policy noeviction on the limiter's (docs/operations.md, "Result cache")`,
          );
        } else {
          app.log.info(
            "result cache: sharing results through the limiter's Redis (maxmemory-policy noeviction)",
          );
        }
      };
      // The first read may have come before this plugin: say it now, and every change after.
      if (watch.state) say(watch.state);
      const limiter = app.limits.redis;
      if (limiter) quiet.push(EVENTS.limiterEviction.subscribe(limiter, say));
    }
    app.addHook('onClose', async () => {
      for (const unsubscribe of quiet) unsubscribe();
      await redis.close();
    });
  },
  { name: 'toolhub-result-cache', dependencies: ['toolhub-limits', 'toolhub-limiter-eviction'] },
);
