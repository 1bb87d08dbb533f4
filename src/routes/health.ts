import type { FastifyInstance } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import { ProcessLink } from '../cluster/link.js';
import type { BoxReadiness } from '../cluster/messages.js';
import { policyNames } from '../limits/eviction-watch.js';

/**
 * `/healthz`: the process is alive. `/readyz`: every worker has loaded its tools and the
 * instance is not shedding load (503 otherwise), and with HUB_PROCESSES > 1 so is every process
 * of the box; the limiter store is `redis`, `memory` or `degraded`, with the eviction policy of
 * its Redis (docs/operations.md, "Health and readiness"), and the result cache's shared layer.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  const localReady = () => app.pool.warm && app.pool.stats().workers > 0 && !app.isUnderPressure();
  const link = ProcessLink.current();
  link?.provide('ready', localReady);
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
    // HUB_PROCESSES > 1: ready only when every process of the box is.
    const box = link ? ((await link.ask('ready').catch(() => null)) as BoxReadiness | null) : null;
    const ready = localReady() && !pressured && (link === null || (box !== null && box.ready >= box.total));
    // Degraded still serves (the insurance limiter counts): ready, but said so.
    reply.code(ready ? 200 : 503);
    return {
      ok: ready,
      status: pressured
        ? 'under-pressure'
        : !ready
          ? 'not-ready'
          : limiterStore === 'degraded'
            ? 'degraded'
            : 'ready',
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
      ...(box ? { processes: box } : {}),
    };
  });
}
