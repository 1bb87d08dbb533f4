import {
  AggregatorRegistry,
  type MetricObjectWithValues,
  type MetricValue as PromValue,
  Registry,
} from 'prom-client';
import type { Exemplar } from './fast-metrics.js';

export const PROMETHEUS_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
export const OPENMETRICS_TYPE = Registry.OPENMETRICS_CONTENT_TYPE;

export type MetricsFormat = 'prometheus' | 'openmetrics';
/** A value as the instruments give it (src/fast-metrics.ts adds the exemplar). */
type MetricValue = PromValue<string> & { metricName?: string; exemplar?: Exemplar };
type Metrics = MetricObjectWithValues<MetricValue>[];

/** OpenMetrics when the Accept header names it (Prometheus asks for it first), else the Prometheus text format. */
export function metricsFormat(accept: string | undefined): MetricsFormat {
  return accept?.includes('application/openmetrics-text') ? 'openmetrics' : 'prometheus';
}

/**
 * The scrape's text from the metrics of one process or of several (HUB_PROCESSES, summed by
 * prom-client's aggregation). A fresh registry renders it: prom-client's OpenMetrics
 * rendering renames a counter it is given, which must not touch the live instruments. The
 * aggregation keeps no exemplar; each bucket gets back the newest any process had.
 */
export async function renderMetrics(parts: Metrics[], format: MetricsFormat): Promise<string> {
  const merged =
    parts.length === 1
      ? parts[0]!
      : ((await AggregatorRegistry.aggregate(parts as never).getMetricsAsJSON()) as Metrics);
  const registry = format === 'openmetrics' ? new Registry<typeof OPENMETRICS_TYPE>() : new Registry();
  registry.setContentType((format === 'openmetrics' ? OPENMETRICS_TYPE : PROMETHEUS_TYPE) as never);
  const exemplars = format === 'openmetrics' && parts.length > 1 ? newestExemplars(parts) : null;
  for (const metric of merged) {
    const values = exemplars
      ? metric.values.map((v) => withExemplar(metric.name, v, exemplars))
      : metric.values;
    // OpenMetrics names a counter's family without `_total` and its samples with it.
    const name =
      format === 'openmetrics' && (metric.type as unknown) === 'counter'
        ? metric.name.replace(/_total$/, '')
        : metric.name;
    const item = { ...metric, name, values };
    registry.registerMetric({ name, help: metric.help, type: metric.type, get: () => item } as never);
  }
  return registry.metrics();
}

function seriesKey(name: string, v: MetricValue): string {
  const labels = Object.entries(v.labels).sort(([a], [b]) => a.localeCompare(b));
  return `${v.metricName ?? name}${JSON.stringify(labels)}`;
}

function newestExemplars(parts: Metrics[]): Map<string, Exemplar> {
  const newest = new Map<string, Exemplar>();
  for (const metrics of parts)
    for (const metric of metrics)
      for (const v of metric.values) {
        if (!v.exemplar) continue;
        const key = seriesKey(metric.name, v);
        const seen = newest.get(key);
        if (!seen || seen.timestamp < v.exemplar.timestamp) newest.set(key, v.exemplar);
      }
  return newest;
}

function withExemplar(name: string, v: MetricValue, exemplars: Map<string, Exemplar>): MetricValue {
  const exemplar = exemplars.get(seriesKey(name, v));
  return exemplar ? { ...v, exemplar } : v;
}
