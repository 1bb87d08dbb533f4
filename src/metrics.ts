import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

import type { PoolStats } from './pool/pool.js';

/**
 * prom-client hashes the label values on every `labels()` call; on the hot path the
 * children are looked up by their joined values instead. Label sets here are bounded
 * (tools, surfaces, sources, outcomes, routes, statuses).
 */
function childrenOf<C>(metric: { labels(...values: string[]): C }): (...values: string[]) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\0');
    let child = children.get(key);
    if (!child) {
      child = metric.labels(...values);
      children.set(key, child);
    }
    return child;
  };
}

/** One run for the metrics; the times only for runs that reached a worker. */
export interface RunRecord {
  tool: string;
  surface: string;
  source: string;
  /** `ok` or the errorCode. */
  outcome: string;
  /** The API key's tier, `none` without one: metrics never name a key or its id. */
  tier?: string;
  durationMs?: number;
  queuedMs?: number;
}

const TOTAL_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

const RUN_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The hub's Prometheus instruments, on a registry of its own (several apps in one
 * test process must not share the global one). Children of labelled counters are
 * cached: prom-client hashes label values on every `labels()` call.
 */
export class HubMetrics {
  readonly registry = new Registry();
  private readonly runs: Counter<'tool' | 'surface' | 'source' | 'outcome'>;
  private readonly runSeconds: Histogram<'tool'>;
  private readonly queueSeconds: Histogram<'tool'>;
  private readonly rateLimited: Counter<'tool'>;
  private readonly tierRuns: Counter<'tier' | 'outcome'>;
  private readonly tierRun: (...labels: string[]) => { inc(): void };
  readonly workerRestarts: Counter;
  readonly batchRuns: Histogram;
  readonly limiterFallbacks: Counter<'reason'>;
  private readonly httpSeconds: Histogram<'method' | 'route' | 'status_code'>;
  private readonly run: (...labels: string[]) => { inc(): void };
  private readonly runTime: (tool: string) => { observe(v: number): void };
  private readonly queueTime: (tool: string) => { observe(v: number): void };
  private readonly limited: (tool: string) => { inc(): void };
  private readonly http: (...labels: string[]) => { observe(v: number): void };

  constructor(opts: { pool: () => PoolStats; storeDegraded: () => number; storeMode: string }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    // Gauges may not end in `_total` (promtool check metrics); the per-type gauges of the
    // same name without the suffix stay, and their sum is the total.
    for (const name of TOTAL_GAUGES) this.registry.removeSingleMetric(name);
    this.runs = new Counter({
      name: 'toolhub_runs_total',
      help: 'Tool runs by tool, surface, source and outcome (ok or the errorCode)',
      labelNames: ['tool', 'surface', 'source', 'outcome'],
      registers,
    });
    this.runSeconds = new Histogram({
      name: 'toolhub_run_duration_seconds',
      help: 'Execution time of runs in the worker',
      labelNames: ['tool'],
      buckets: RUN_BUCKETS,
      registers,
    });
    this.queueSeconds = new Histogram({
      name: 'toolhub_queue_wait_seconds',
      help: 'Time runs waited for a worker',
      labelNames: ['tool'],
      buckets: RUN_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({
      name: 'toolhub_rate_limited_total',
      help: 'Runs refused by the rate limiter',
      labelNames: ['tool'],
      registers,
    });
    this.workerRestarts = new Counter({
      name: 'toolhub_worker_restarts_total',
      help: 'Workers replaced after a timeout, a crash or running out of memory',
      registers,
    });
    this.batchRuns = new Histogram({
      name: 'toolhub_pool_batch_runs',
      help: 'Runs per batch sent to a worker (runs of fast tools waiting together cross the thread boundary together)',
      buckets: [1, 2, 4, 8, 16, 32],
      registers,
    });
    this.limiterFallbacks = new Counter({
      name: 'toolhub_limiter_fallbacks_total',
      help: 'Limiter calls that fell back from Redis to the in-process insurance store',
      labelNames: ['reason'],
      registers,
    });
    this.httpSeconds = new Histogram({
      name: 'toolhub_http_request_duration_seconds',
      help: 'HTTP requests by method, route and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.tierRuns = new Counter({
      name: 'toolhub_tier_runs_total',
      help: 'Runs by API-key tier (none: no key) and outcome; never by key',
      labelNames: ['tier', 'outcome'],
      registers,
    });
    this.run = childrenOf(this.runs);
    this.tierRun = childrenOf(this.tierRuns);
    this.runTime = childrenOf(this.runSeconds);
    this.queueTime = childrenOf(this.queueSeconds);
    this.limited = childrenOf(this.rateLimited);
    this.http = childrenOf(this.httpSeconds);
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('toolhub_pool_threads', 'Batches of fast tools at once (POOL_THREADS)', () => opts.pool().threads);
    gauge(
      'toolhub_pool_slow_threads',
      'Runs of slow tools at once on the slow lane (held runs apart)',
      () => opts.pool().slowThreads,
    );
    gauge(
      'toolhub_pool_max_workers',
      'Most worker threads at once: both lanes, a warm spare each and their overflow',
      () => opts.pool().maxWorkers,
    );
    gauge('toolhub_pool_workers', 'Worker threads alive now', () => opts.pool().workers);
    gauge(
      'toolhub_pool_held_runs',
      'Runs held now: running past 100 ms at lower priority, off the active workers',
      () => opts.pool().held,
    );
    gauge('toolhub_pool_queue_depth', 'Runs waiting for a worker', () => opts.pool().queueSize);
    gauge(
      'toolhub_pool_utilization',
      'Share of time the workers were busy (0..1)',
      () => opts.pool().utilization,
    );
    gauge(
      'toolhub_pool_slots_in_use',
      'Runs queued or running, out of the pool capacity',
      () => opts.pool().inUse,
    );
    gauge('toolhub_pool_capacity', 'Threads plus queue bound', () => opts.pool().capacity);
    gauge(
      'toolhub_limiter_store_degraded',
      `1 while the limiter store (${opts.storeMode}) is unreachable and the in-process insurance counts`,
      opts.storeDegraded,
    );
  }

  recordRun(run: RunRecord): void {
    this.run(run.tool, run.surface, run.source, run.outcome).inc();
    this.tierRun(run.tier ?? 'none', run.outcome).inc();
    if (run.durationMs !== undefined && run.durationMs > 0)
      this.runTime(run.tool).observe(run.durationMs / 1000);
    if (run.queuedMs !== undefined) this.queueTime(run.tool).observe(run.queuedMs / 1000);
    if (run.outcome === 'RATE_LIMITED') this.limited(run.tool).inc();
  }

  recordHttp(method: string, route: string, status: number, seconds: number): void {
    this.http(method, route, String(status)).observe(seconds);
  }
}
