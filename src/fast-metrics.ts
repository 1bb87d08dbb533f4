import type { Registry } from 'prom-client';

/**
 * Labelled counters and histograms for the hot path, served through prom-client's registry
 * (its `getMetricsAsString` reads any object with `get()`). prom-client's own Counter and
 * Histogram validate and hash the label values on every inc()/observe(), even through a
 * child from labels(); in a CPU profile of a cheap run that was ~5% of the API thread
 * (docs/benchmarks.md, "What was done"). Here a label set's series is found by its values
 * joined once per call, and an observation is a bucket search and three additions. The
 * exposition is prom-client's (`_bucket` with `le`, `_sum`, `_count`): src/fast-metrics.test.ts
 * compares the two line for line, and the dashboard, the alerts and `promtool check metrics`
 * read it alike (test/deploy.test.ts, src/metrics.test.ts).
 */
type Labels = Record<string, string>;

interface MetricValue {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
  exemplar?: Exemplar;
}

abstract class FastMetric<S> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum';
  protected series = new Map<string, { labels: Labels; s: S }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly string[],
    registry: Registry,
  ) {
    registry.registerMetric(this as never);
  }

  protected abstract fresh(): S;

  /** The series of these label values (in `labelNames` order; up to four). */
  protected at(a: string, b = '', c = '', d = ''): S {
    const key = `${a}\0${b}\0${c}\0${d}`;
    let entry = this.series.get(key);
    if (!entry) {
      const values = [a, b, c, d];
      const labels: Labels = {};
      this.labelNames.forEach((name, i) => {
        labels[name] = values[i]!;
      });
      entry = { labels, s: this.fresh() };
      this.series.set(key, entry);
    }
    return entry.s;
  }

  reset(): void {
    this.series = new Map();
  }

  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    for (const { labels, s } of this.series.values()) this.export(labels, s, values);
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected abstract export(labels: Labels, s: S, out: MetricValue[]): void;
}

export class FastCounter extends FastMetric<{ n: number }> {
  readonly type = 'counter';

  protected fresh() {
    return { n: 0 };
  }

  inc(a: string, b?: string, c?: string, d?: string): void {
    this.at(a, b, c, d).n++;
  }

  protected export(labels: Labels, s: { n: number }, out: MetricValue[]): void {
    out.push({ labels, value: s.n });
  }
}

interface HistogramSeries {
  /** Observations per bucket (not cumulative); past the last bound they count only in `count`. */
  buckets: Float64Array;
  sum: number;
  count: number;
  /** The latest traced observation of each bucket (the last is +Inf), while tracing is on. */
  exemplars?: (Exemplar | undefined)[];
}

/** An observation's trace (OpenMetrics exemplar; prom-client writes `labelSet`, `value`, `timestamp` in seconds). */
export interface Exemplar {
  labelSet: Record<string, string>;
  value: number;
  timestamp: number;
}

export class FastHistogram extends FastMetric<HistogramSeries> {
  readonly type = 'histogram';

  constructor(
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super(name, help, labelNames, registry);
  }

  protected fresh(): HistogramSeries {
    return { buckets: new Float64Array(this.bounds.length), sum: 0, count: 0 };
  }

  observe(value: number, a: string, b?: string, c?: string): void {
    this.add(this.at(a, b, c), value);
  }

  /** An observation made under a sampled trace: its ids become the bucket's exemplar (docs/operations.md, "Traces"). */
  observeTraced(value: number, trace: Record<string, string>, a: string, b?: string, c?: string): void {
    const s = this.at(a, b, c);
    const i = this.add(s, value);
    if (i < 0) return;
    s.exemplars ??= new Array(this.bounds.length + 1);
    s.exemplars[i] = { labelSet: trace, value, timestamp: Date.now() / 1000 };
  }

  /** Counts `value` in `s`; the index of its bucket (bounds.length: +Inf), -1 when it is not a number. */
  private add(s: HistogramSeries, value: number): number {
    if (!Number.isFinite(value)) return -1; // prom-client throws here; a metric must not fail a request
    s.sum += value;
    s.count++;
    // A plain loop: findIndex would allocate a closure per observation.
    for (let i = 0; i < this.bounds.length; i++) {
      if (value <= this.bounds[i]!) {
        s.buckets[i]!++;
        return i;
      }
    }
    return this.bounds.length;
  }

  protected export(labels: Labels, s: HistogramSeries, out: MetricValue[]): void {
    let cumulative = 0;
    // The bounds, then +Inf (index bounds.length: every observation).
    for (let i = 0; i <= this.bounds.length; i++) {
      const inf = i === this.bounds.length;
      cumulative = inf ? s.count : cumulative + s.buckets[i]!;
      const le = inf ? '+Inf' : this.bounds[i]!;
      const v: MetricValue = {
        labels: { le, ...labels },
        value: cumulative,
        metricName: `${this.name}_bucket`,
      };
      const exemplar = s.exemplars?.[i];
      if (exemplar) v.exemplar = exemplar;
      out.push(v);
    }
    out.push({ labels, value: s.sum, metricName: `${this.name}_sum` });
    out.push({ labels, value: s.count, metricName: `${this.name}_count` });
  }
}
