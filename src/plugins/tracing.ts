import type { Context, Span } from '@opentelemetry/api';
import fp from 'fastify-plugin';
import { hubVersion } from '../registry.js';
import { traceSettings } from '../telemetry/settings.js';
import { failSpan, requestSpan, tracingOn, withContext } from '../telemetry/spans.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Its span (the access log and the exemplars read its ids), and the context its handler runs in (null: not sampled), while tracing is on. */
    trace: { span: Span; context: Context | null } | null;
  }
}

/** The door a request that ran a tool came through, by its route (docs/api.md, "Surfaces"). */
const SURFACES: Record<string, string> = {
  '/api/tools/run/': 'runtime',
  '/api/tools/batch/': 'batch',
  '/api/jobs/': 'job',
  '/mcp': 'mcp',
  '/api/pipelines/run': 'pipeline',
};
const surfaceOf = (route: string | undefined) => (route && SURFACES[route]) || 'dedicated';

/** Routes left out of the traces: the probes and the scrape. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * While tracing is on (docs/operations.md, "Traces"): a server span per request, continuing
 * the caller's `traceparent`, named by its method and route, and its handler run in that
 * span's context, so the run's spans hang under it. Nothing at all while it is off.
 * Registered first, so that every route after it is wrapped.
 *
 * Glue of our own rather than `@fastify/otel`: that instrumentation wraps every hook of
 * every request and spans the handler apart, and on the `hub-run-redis` benchmark it was
 * about half of tracing's cost (docs/benchmarks.md, "Traces"); it also records the URL,
 * whose query string can hold a run's input.
 */
export default fp(
  async (app) => {
    app.decorateRequest('trace', null);
    // The SDK is the process's: started by the first app whose settings ask for it (off, the
    // default: not a module of it is loaded), and its last spans sent when that app closes.
    const settings = traceSettings(app.hubConfig.env);
    if (settings && !tracingOn()) {
      const { startTracing } = await import('../telemetry/tracing.js');
      const tracing = await startTracing(settings, hubVersion());
      app.addHook('onClose', () => tracing.shutdown(2000));
    }
    if (!tracingOn()) return;
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url;
      if (route !== undefined && UNTRACED.has(route)) return done();
      request.trace = requestSpan(request.method, route, request.headers);
      done();
    });
    app.addHook('onRoute', (route) => {
      const handler = route.handler;
      route.handler = function traced(request, reply) {
        const ctx = request.trace?.context;
        return ctx
          ? withContext(ctx, () => handler.call(this, request, reply))
          : handler.call(this, request, reply);
      };
    });
    app.addHook('onError', (request, _reply, error, done) => {
      failSpan(request.trace?.span, error.message.slice(0, 200));
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const span = request.trace?.span;
      if (span) {
        span.setAttribute('http.response.status_code', reply.statusCode);
        if (request.toolId !== null) {
          span.setAttribute('toolhub.tool', request.toolId);
          span.setAttribute('toolhub.surface', surfaceOf(request.routeOptions.url));
        }
        if (request.errorCode !== null) span.setAttribute('toolhub.error_code', request.errorCode);
        span.setAttribute('toolhub.tier', request.keyOwner?.tier?.name ?? 'none');
        if (reply.statusCode >= 500) failSpan(span, request.errorCode ?? String(reply.statusCode));
        span.end();
      }
      done();
    });
  },
  { name: 'toolhub-tracing' },
);
