import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export interface PoolStats {
  threads: number;
  queueSize: number;
  utilization: number;
  capacity: number;
  inUse: number;
}

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
  readonly workerRestarts: Counter;
  readonly limiterFallbacks: Counter<'reason'>;
  readonly httpSeconds: Histogram<'method' | 'route' | 'status_code'>;
  private readonly children = new Map<string, { inc(): void }>();

  constructor(opts: { pool: () => PoolStats; storeDegraded: () => number; storeMode: string }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
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
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('toolhub_pool_threads', 'Worker threads in the pool', () => opts.pool().threads);
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

  recordRun(
    tool: string,
    surface: string,
    source: string,
    outcome: string,
    durationMs: number,
    queuedMs: number,
  ): void {
    const key = `${tool}|${surface}|${source}|${outcome}`;
    let child = this.children.get(key);
    if (!child) {
      child = this.runs.labels(tool, surface, source, outcome);
      this.children.set(key, child);
    }
    child.inc();
    if (durationMs > 0) this.runSeconds.labels(tool).observe(durationMs / 1000);
    if (queuedMs >= 0) this.queueSeconds.labels(tool).observe(queuedMs / 1000);
    if (outcome === 'RATE_LIMITED') this.rateLimited.labels(tool).inc();
  }
}
