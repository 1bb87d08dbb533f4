import type { FastifyInstance } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import { ProcessLink } from '../cluster/link.js';
import type { BoxAnswer } from '../cluster/messages.js';
import { policyNames } from '../limits/eviction-watch.js';

/**
 * `/healthz`: the process is alive. `/readyz`: the instance can serve (docs/operations.md,
 * "Health and readiness"): alone, its workers are up and it is not shedding load (503
 * otherwise); with HUB_PROCESSES > 1, every process of the box has been ready once (its
 * boot) and at least one is now, and the body says how many are and which are starting or
 * down. The limiter store is `redis`, `memory` or `degraded`, with the eviction policy of its
 * Redis, and the result cache's shared layer.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  const localReady = () => app.pool.warm && app.pool.stats().workers > 0 && !app.isUnderPressure();
  const link = ProcessLink.current();
  link?.provide('ready', localReady);
  app.metrics.processState(localReady);
  app.get(ROUTE_DOCS.healthz.url, { schema: routeSchema(ROUTE_DOCS.healthz) }, async () => ({
    ok: true,
    status: 'alive',
  }));
  app.get(ROUTE_DOCS.readyz.url, { schema: routeSchema(ROUTE_DOCS.readyz) }, async (_request, reply) => {
    const pool = app.pool.stats();
    const redis = app.limits.redis;
    const limiterStore = redis === null ? 'memory' : redis.degraded ? 'degraded' : 'redis';
    const watched = app.limiterEviction;
    const state = watched?.state ?? null;
    const eviction = watched
      ? { maxmemoryPolicy: state ? policyNames(state) : null, evictable: state ? state.evictable : null }
      : null;
    const pressured = app.isUnderPressure();
    // HUB_PROCESSES > 1: after its boot, the box can serve while any of its processes can (the
    // primary hands connections to the others); this one's own state goes with the question,
    // so the answer never waits on it.
    const box = link ? ((await link.ask('ready', localReady()).catch(() => null)) as BoxAnswer | null) : null;
    const ready = link === null ? localReady() : box?.ok === true;
    // Degraded still serves (the insurance limiter counts): ready, but said so.
    reply.code(ready ? 200 : 503);
    return {
      ok: ready,
      status: ready
        ? limiterStore === 'degraded'
          ? 'degraded'
          : 'ready'
        : pressured
          ? 'under-pressure'
          : 'not-ready',
      pool: {
        threads: pool.threads,
        slowThreads: pool.slowThreads,
        maxWorkers: pool.maxWorkers,
        workers: pool.workers,
        held: pool.held,
        queueSize: pool.queueSize,
        inUse: pool.inUse,
        capacity: pool.capacity,
      },
      limiterStore,
      ...(eviction ? { limiterRedis: eviction } : {}),
      resultCache: app.resultCacheState(),
      ...(box ? { processes: box.processes } : {}),
    };
  });
}
