import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  TraceFlags,
  trace,
} from '@opentelemetry/api';

/**
 * The hub's spans (docs/operations.md, "Traces"), through the OpenTelemetry API. While
 * tracing is off (the default) nothing here allocates a span or reads a context: `inSpan`
 * calls its function and returns, so a run costs what it did before (docs/benchmarks.md).
 * Attributes name the tool, surface, tier and outcome, never a key, a client or an input.
 */
let on = false;

/** Set once by startTracing (src/telemetry/tracing.ts), before the app is built. */
export function setTracingOn(value: boolean): void {
  on = value;
}

export function tracingOn(): boolean {
  return on;
}

const tracer = () => trace.getTracer('tool-hub');

/** Runs `fn` in a span named `name`, a child of the active one (or of `parent`); ends it when `fn` settles. */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span | undefined) => Promise<T>,
  opts: { parent?: Context; kind?: SpanKind } = {},
): Promise<T> {
  if (!on) return fn(undefined);
  const parent = opts.parent ?? context.active();
  // Only under a sampled trace: a request the sampler passed over (9 in 10 by default) has
  // no span of its own to carry, and none is made under it.
  if (!sampled(parent)) return fn(undefined);
  const span = tracer().startSpan(name, { attributes, kind: opts.kind ?? SpanKind.INTERNAL }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

/** A span measured elsewhere (a worker's clock, a queue), recorded with its own start and end. */
export function recordSpan(
  name: string,
  start: TimeInput,
  end: TimeInput,
  attributes: Attributes,
  error?: string,
): void {
  if (!on) return;
  const parent = context.active();
  if (!sampled(parent)) return;
  const span = tracer().startSpan(name, { attributes, startTime: start }, parent);
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
  span.end(end);
}

/** The context names a trace its sampler kept: spans are made only under one. */
export function sampled(ctx: Context): boolean {
  const c = trace.getSpanContext(ctx);
  return c !== undefined && (c.traceFlags & TraceFlags.SAMPLED) !== 0;
}

/** Marks the active span failed, with a message (an errorCode and its text, never an input). */
export function failSpan(span: Span | undefined, message: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The active trace as a W3C `traceparent` (and `tracestate`), to travel with a job or a webhook; {} while off. */
export function currentTraceHeaders(): Record<string, string> {
  if (!on) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a `traceparent` (and `tracestate`) names, to continue a trace begun elsewhere; the active one without. */
export function contextFrom(headers: { traceparent?: unknown; tracestate?: unknown } | undefined): Context {
  if (!on) return ROOT_CONTEXT;
  if (!headers || typeof headers.traceparent !== 'string') return context.active();
  const carrier: Record<string, string> = { traceparent: headers.traceparent };
  if (typeof headers.tracestate === 'string') carrier.tracestate = headers.tracestate;
  const extracted = propagation.extract(ROOT_CONTEXT, carrier);
  // A malformed traceparent names nothing: the active trace goes on.
  return trace.getSpanContext(extracted) ? extracted : context.active();
}

/**
 * A request's server span, continuing the caller's `traceparent` (and `tracestate`) when it
 * sends one, and the context its handler runs in. Its attributes are the method and the
 * route, never the URL: a query string can hold a run's input.
 */
export function requestSpan(
  method: string,
  route: string | undefined,
  headers: Record<string, string | string[] | undefined>,
): { span: Span; context: Context | null } {
  const parent = contextFrom(headers);
  const attributes = { 'http.request.method': method, ...(route ? { 'http.route': route } : {}) };
  const span = tracer().startSpan(
    `${method} ${route ?? 'unmatched'}`,
    { kind: SpanKind.SERVER, attributes },
    parent,
  );
  // Not sampled: its ids still name the request (the access log), but its handler runs
  // without a context of its own, and nothing under it makes a span.
  return { span, context: span.isRecording() ? trace.setSpan(parent, span) : null };
}

/** Runs `fn` with `ctx` active. */
export function withContext<T>(ctx: Context, fn: () => T): T {
  return on ? context.with(ctx, fn) : fn();
}

export type TraceIds = { trace_id: string; span_id: string };

/** A span's ids, sampled or not (a log line names them). */
export function idsOf(span: Span): TraceIds {
  const c = span.spanContext();
  return { trace_id: c.traceId, span_id: c.spanId };
}

/** The ids of a sampled span, for an exemplar; null when there is none or it is not sampled. */
export function sampledIdsOf(span: Span | undefined): TraceIds | null {
  return span && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0 ? idsOf(span) : null;
}

/** The ids of the active span when it is sampled (an exemplar's labels); null while off. */
export function activeTraceIds(): TraceIds | null {
  return on ? sampledIdsOf(trace.getActiveSpan()) : null;
}

/** `data` with the active trace (`traceparent`, `tracestate`) as `trace`, to travel with it; as it is when there is none. */
export function withTrace<T extends object>(data: T): T & { trace?: Record<string, string> } {
  const trace = currentTraceHeaders();
  return trace.traceparent ? { ...data, trace } : data;
}

export { SpanKind };
