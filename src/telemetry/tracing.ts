import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';
import { context, DiagLogLevel, diag } from '@opentelemetry/api';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { DEFAULT_SAMPLE_RATIO, type TraceSettings } from './settings.js';
import { sampled, setTracingOn } from './spans.js';

export interface Tracing {
  /** Sends what is buffered and stops; bounded, never throws. */
  shutdown(timeoutMs: number): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK for this process (docs/operations.md, "Traces"): the W3C
 * propagator and an AsyncLocalStorage context (NodeTracerProvider.register), a batching
 * OTLP exporter the standard OTEL_* variables configure, and the ioredis instrumentation,
 * so that every Redis command under a request is a span of it. Started by the tracing
 * plugin (src/plugins/tracing.ts, registered first), which also makes the request spans.
 */
export async function startTracing(settings: TraceSettings, version: string): Promise<Tracing> {
  // The SDK's own complaints (an unreachable collector) go to the log as warnings, once each.
  diag.setLogger(
    { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
    DiagLogLevel.WARN,
  );
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'tool-hub', 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(await exporterFor(settings))],
    // Unset: the hub's default (a caller's decision, else 1 in 10); set: the SDK reads it.
    ...(settings.samplerFromEnv
      ? {}
      : { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(DEFAULT_SAMPLE_RATIO) }) }),
  });
  provider.register();
  patchIoredis(provider);
  setTracingOn(true);
  return {
    async shutdown(timeoutMs) {
      setTracingOn(false);
      await Promise.race([provider.shutdown().catch(() => {}), delay(timeoutMs, undefined, { ref: false })]);
    },
  };
}

/** The exporter the protocol names; each reads its endpoint, headers and timeout from OTEL_*. */
async function exporterFor(s: TraceSettings): Promise<SpanExporter> {
  if (s.exporter === 'console') return new ConsoleSpanExporter();
  if (s.protocol === 'grpc')
    return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
  if (s.protocol === 'http/json')
    return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
}

/**
 * The ioredis instrumentation, applied to the module the hub (and BullMQ) load: the hub is
 * ESM and loads no module hook, so the instrumentation's patch is called on ioredis's
 * exports directly (a prototype patch: clients made before it are traced too). Only the
 * command's name is recorded: its arguments hold limit keys and inputs. A command outside a
 * request (a renewal, a metrics read) makes no trace of its own.
 */
function patchIoredis(provider: NodeTracerProvider): void {
  const instrumentation = new IORedisInstrumentation({
    requireParentSpan: true,
    dbStatementSerializer: (command) => command,
  });
  instrumentation.setTracerProvider(provider);
  const ioredis = createRequire(import.meta.url)('ioredis');
  const version = createRequire(import.meta.url)('ioredis/package.json').version as string;
  const definitions = (instrumentation as unknown as { init(): ModuleDefinition[] }).init();
  for (const d of [definitions].flat()) d.patch?.(ioredis, version);
  // Outside a sampled trace a command goes straight to ioredis: the instrumentation would
  // make a span that is never recorded, and bind the command's callbacks for it.
  const proto = ioredis.prototype as { sendCommand: Wrapped };
  const traced = proto.sendCommand;
  const plain = traced.__original;
  if (typeof plain === 'function')
    proto.sendCommand = function sendCommand(this: unknown, ...args: unknown[]) {
      return (sampled(context.active()) ? traced : plain).apply(this, args);
    };
}

/** A function the instrumentation wrapped (shimmer keeps the original). */
type Wrapped = ((...args: unknown[]) => unknown) & { __original?: (...args: unknown[]) => unknown };

interface ModuleDefinition {
  patch?: (exports: unknown, version?: string) => unknown;
}

const warned = new Set<string>();

/** One log line (pino's shape, level warn) per distinct complaint: a collector that is down is said once. */
function warn(message: string, ...args: unknown[]): void {
  const msg = `tracing: ${message} ${args.map(String).join(' ')}`.trim().slice(0, 500);
  if (warned.has(msg) || warned.size > 100) return;
  warned.add(msg);
  process.stderr.write(`${JSON.stringify({ level: 40, time: Date.now(), msg })}\n`);
}
