import fp from 'fastify-plugin';
import { traceIdsOf, tracingOn } from '../telemetry/spans.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's trace and span ids while tracing is on (the access log), null otherwise. */
    traceIds: { trace_id: string; span_id: string } | null;
    /** Whether its span is sampled: its ids may label an exemplar. */
    traceSampled: boolean;
  }
}

/** Routes left out of the traces: the probes and the scrape. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * While tracing is on (docs/operations.md, "Traces"), `@fastify/otel`: a span per request
 * (continuing the caller's `traceparent`), named by its method and route, and one for its
 * handler, under which the run's spans hang. Nothing at all while it is off. Registered
 * first, so that every route and hook after it is inside the request's span.
 */
export default fp(
  async (app) => {
    app.decorateRequest('traceIds', null);
    app.decorateRequest('traceSampled', false);
    if (!tracingOn()) return;
    // Before @fastify/otel's own onSend ends the span: what the run was, never who or with what.
    app.addHook('onSend', (request, _reply, payload, done) => {
      const span = request.opentelemetry().span;
      if (span) {
        if (request.toolId !== null) span.setAttribute('toolhub.tool', request.toolId);
        if (request.errorCode !== null) span.setAttribute('toolhub.error_code', request.errorCode);
        span.setAttribute('toolhub.tier', request.keyOwner?.tier?.name ?? 'none');
      }
      done(null, payload);
    });
    const { FastifyOtelInstrumentation } = await import('@fastify/otel');
    const otel = new FastifyOtelInstrumentation({
      registerOnInitialization: false,
      instrumentHooks: false,
      recordExceptions: false,
      // Probes and scrapes come every few seconds and say nothing of a request.
      ignorePaths: (route) => UNTRACED.has(route.url.split('?')[0]!),
      requestHook: (span, request) => {
        span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
      },
    });
    await app.register(otel.plugin());
    app.addHook('onRequest', (request, _reply, done) => {
      const span = request.opentelemetry().span;
      if (span) {
        const c = span.spanContext();
        request.traceIds = { trace_id: c.traceId, span_id: c.spanId };
        request.traceSampled = traceIdsOf(span) !== null;
      }
      done();
    });
  },
  { name: 'toolhub-tracing' },
);
