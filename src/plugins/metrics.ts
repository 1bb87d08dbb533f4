import fp from 'fastify-plugin';
import { HubMetrics } from '../metrics.js';
import { routeSchema } from '../routes/route-doc.js';
import { ROUTE_DOCS } from '../routes/route-docs.js';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: HubMetrics;
  }
}

/** prom-client instruments, the HTTP request histogram and GET /metrics. */
export default fp(
  async (app) => {
    const metrics = new HubMetrics({
      pool: () => app.pool.stats(),
      storeDegraded: () => (app.limits.redis?.degraded ? 1 : 0),
      storeMode: app.limits.redis ? 'redis' : 'memory',
      ...(app.limits.redis ? { leases: () => app.limits.leases() } : {}),
    });
    app.decorate('metrics', metrics);
    const logRestart = app.pool.onRestart;
    app.pool.onRestart = () => {
      logRestart();
      metrics.workerRestarts.inc();
    };
    app.pool.onBatch = (runs) => metrics.batchRuns.observe(runs);
    if (app.limits.redis)
      app.limits.redis.onFallback = (reason) => metrics.limiterFallbacks.labels(classify(reason)).inc();

    app.addHook('onResponse', (request, reply, done) => {
      metrics.recordHttp(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });

    app.get(ROUTE_DOCS.metrics.url, { schema: routeSchema(ROUTE_DOCS.metrics) }, async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  },
  { name: 'toolhub-metrics', dependencies: ['toolhub-limits', 'toolhub-pool'] },
);

function classify(reason: string): string {
  if (/timed? ?out/i.test(reason)) return 'timeout';
  if (/connection|not ready|ECONNREFUSED|closed/i.test(reason)) return 'connection';
  return 'error';
}
