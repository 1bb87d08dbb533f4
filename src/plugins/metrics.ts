import fp from 'fastify-plugin';
import { routeSchema } from '../catalogue/route-doc.js';
import { ROUTE_DOCS } from '../catalogue/route-docs.js';
import { ProcessLink } from '../cluster/link.js';
import { HubMetrics } from '../metrics.js';
import { metricsFormat, OPENMETRICS_TYPE, PROMETHEUS_TYPE, renderMetrics } from '../metrics-text.js';
import { EVENTS } from '../shared/events.js';
import { sampledIdsOf } from '../telemetry/spans.js';

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
      // Read at scrape time: the facade and its cache are built after this plugin (src/plugins/facade.ts).
      cacheMemory: () => app.facade.cacheMemory,
      ...(app.limiterEviction
        ? { limiterEvictable: () => (app.limiterEviction?.state?.evictable ? 1 : 0) }
        : {}),
      // Every tool, 0 included: a gauge reads better as zeros than as absent series.
      ...(app.limits.redis
        ? {
            leases: () => {
              const { held, unreleased } = app.limits.leases();
              return { held: new Map([...app.tools.keys()].map((t) => [t, held.get(t) ?? 0])), unreleased };
            },
          }
        : {}),
    });
    app.decorate('metrics', metrics);
    const quiet = [
      EVENTS.workerRestart.subscribe(app.pool, () => metrics.workerRestarts.inc()),
      EVENTS.batchSent.subscribe(app.pool, ({ runs }) => metrics.batchRuns.observe(runs)),
    ];
    const redis = app.limits.redis;
    if (redis)
      quiet.push(
        EVENTS.limiterFallback.subscribe(redis, ({ reason }) =>
          metrics.limiterFallbacks.labels(classify(reason)).inc(),
        ),
      );
    app.addHook('onClose', async () => {
      for (const unsubscribe of quiet) unsubscribe();
    });

    app.addHook('onResponse', (request, reply, done) => {
      metrics.recordHttp(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
        sampledIdsOf(request.trace?.span),
      );
      done();
    });

    // HUB_PROCESSES > 1: one scrape answers for the box, every process's metrics summed by the
    // primary (prom-client's cluster aggregation, src/cluster/primary.ts).
    const link = ProcessLink.current();
    link?.provide('metrics', () => metrics.registry.getMetricsAsJSON());
    app.get(ROUTE_DOCS.metrics.url, { schema: routeSchema(ROUTE_DOCS.metrics) }, async (request, reply) => {
      // OpenMetrics (with the exemplars of traced runs) when the scraper asks for it, as
      // Prometheus does; the Prometheus text format otherwise (docs/operations.md, "Traces").
      const format = metricsFormat(request.headers.accept);
      reply.type(format === 'openmetrics' ? OPENMETRICS_TYPE : PROMETHEUS_TYPE);
      if (link) return (await link.ask(format === 'openmetrics' ? 'openmetrics' : 'metrics')) as string;
      return renderMetrics([await metrics.registry.getMetricsAsJSON()], format);
    });
  },
  { name: 'toolhub-metrics', dependencies: ['toolhub-limits', 'toolhub-limiter-eviction', 'toolhub-pool'] },
);

function classify(reason: string): string {
  if (/timed? ?out/i.test(reason)) return 'timeout';
  if (/connection|not ready|ECONNREFUSED|closed/i.test(reason)) return 'connection';
  return 'error';
}
