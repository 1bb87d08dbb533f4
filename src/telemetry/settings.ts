/**
 * Whether and how the hub exports traces, from the standard OpenTelemetry variables
 * (docs/operations.md, "Traces"). Off unless an OTLP endpoint is named or
 * `OTEL_TRACES_EXPORTER` asks for one: an operator who set nothing pays nothing.
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

export interface TraceSettings {
  exporter: 'otlp' | 'console';
  protocol: OtlpProtocol;
  /** OTEL_TRACES_SAMPLER was set: the SDK reads it (and its argument) itself. */
  samplerFromEnv: boolean;
}

/** The variables read here, as loadEnv checked them (src/config/env.ts). */
export interface TraceVariables {
  OTEL_SDK_DISABLED?: boolean;
  OTEL_TRACES_EXPORTER?: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_PROTOCOL?: string;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string;
  OTEL_TRACES_SAMPLER?: string;
}

/** The hub's sampler when OTEL_TRACES_SAMPLER is not set: a caller's decision, else 1 trace in 10. */
export const DEFAULT_SAMPLE_RATIO = 0.1;

/** null: tracing is off. */
export function traceSettings(v: TraceVariables): TraceSettings | null {
  if (v.OTEL_SDK_DISABLED === true || v.OTEL_TRACES_EXPORTER === 'none') return null;
  const named = v.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? v.OTEL_EXPORTER_OTLP_ENDPOINT;
  const exporter = v.OTEL_TRACES_EXPORTER;
  if (exporter === undefined && named === undefined) return null;
  const protocol = (v.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ??
    v.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf') as OtlpProtocol;
  return {
    exporter: exporter === 'console' ? 'console' : 'otlp',
    protocol,
    samplerFromEnv: v.OTEL_TRACES_SAMPLER !== undefined,
  };
}
