import type { FastifyInstance } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';

/**
 * `/healthz`: the process is alive. `/readyz`: every worker has loaded its tools and the
 * instance is not shedding load (503 otherwise); the limiter store is `redis`, `memory` or `degraded`.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get(ROUTE_DOCS.healthz.url, { schema: routeSchema(ROUTE_DOCS.healthz) }, async () => ({
    ok: true,
    status: 'alive',
  }));
  app.get(ROUTE_DOCS.readyz.url, { schema: routeSchema(ROUTE_DOCS.readyz) }, async (_request, reply) => {
    const pool = app.pool.stats();
    const redis = app.limits.redis;
    const limiterStore = redis === null ? 'memory' : redis.degraded ? 'degraded' : 'redis';
    const pressured = app.isUnderPressure();
    const ready = app.pool.warm && pool.workers > 0 && !pressured;
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
    };
  });
}
