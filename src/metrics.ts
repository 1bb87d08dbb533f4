import { type Aggregator, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { PROCESSES_GAUGE } from './cluster/messages.js';
import { FastCounter, FastHistogram } from './fast-metrics.js';
import type { PoolStats } from './pool/pool.js';
import { QuotaMetrics } from './quota-metrics.js';
import { activeTraceIds } from './telemetry/spans.js';

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
  /** The per-request ones are hand-rolled (src/fast-metrics.ts): prom-client hashes labels per call. */
  private readonly runs: FastCounter;
  private readonly runSeconds: FastHistogram;
  private readonly queueSeconds: FastHistogram;
  private readonly rateLimited: FastCounter;
  private readonly tierRuns: FastCounter;
  private readonly httpSeconds: FastHistogram;
  private readonly cacheHits: FastCounter;
  private readonly cacheMisses: FastCounter;
  private readonly cacheWrites: FastCounter;
  readonly workerRestarts: Counter;
  readonly batchRuns: Histogram;
  readonly limiterFallbacks: Counter<'reason'>;
  readonly quota: QuotaMetrics;

  constructor(opts: {
    pool: () => PoolStats;
    storeDegraded: () => number;
    storeMode: string;
    /** Leases this instance holds on clients' slots in Redis, by tool, and releases waiting for Redis. */
    leases?: () => { held: ReadonlyMap<string, number>; unreleased: number };
    /** What the result cache's in-process layer holds. */
    cacheMemory?: () => { entries: number; bytes: number };
    /** 1 while the limiter's Redis was last read with an eviction policy that can evict limit keys. */
    limiterEvictable?: () => number;
  }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.quota = new QuotaMetrics(this.registry);
    // Gauges may not end in `_total` (promtool check metrics); the per-type gauges of the
    // same name without the suffix stay, and their sum is the total.
    for (const name of TOTAL_GAUGES) this.registry.removeSingleMetric(name);
    this.runs = new FastCounter(
      'toolhub_runs_total',
      'Tool runs by tool, surface, source and outcome (ok or the errorCode)',
      ['tool', 'surface', 'source', 'outcome'],
      this.registry,
    );
    this.runSeconds = new FastHistogram(
      'toolhub_run_duration_seconds',
      'Execution time of runs in the worker',
      ['tool'],
      RUN_BUCKETS,
      this.registry,
    );
    this.queueSeconds = new FastHistogram(
      'toolhub_queue_wait_seconds',
      'Time runs waited for a worker',
      ['tool'],
      RUN_BUCKETS,
      this.registry,
    );
    this.rateLimited = new FastCounter(
      'toolhub_rate_limited_total',
      'Runs refused by the rate limiter',
      ['tool'],
      this.registry,
    );
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
    this.httpSeconds = new FastHistogram(
      'toolhub_http_request_duration_seconds',
      'HTTP requests by method, route and status',
      ['method', 'route', 'status_code'],
      [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      this.registry,
    );
    this.tierRuns = new FastCounter(
      'toolhub_tier_runs_total',
      'Runs by API-key tier (none: no key) and outcome; never by key',
      ['tier', 'outcome'],
      this.registry,
    );
    this.cacheHits = new FastCounter(
      'toolhub_result_cache_hits_total',
      'Answers from the result cache by tool and layer (memory: this instance; shared: Redis; etag: 304 on If-None-Match)',
      ['tool', 'layer'],
      this.registry,
    );
    this.cacheMisses = new FastCounter(
      'toolhub_result_cache_misses_total',
      "Result cache lookups that did not answer, by tool: nothing stored, or the request's Cache-Control declined it (tools with cacheTtlSec > 0 only)",
      ['tool'],
      this.registry,
    );
    // The metric keeps its name (dashboards read it): a write is a result stored.
    this.cacheWrites = new FastCounter(
      'toolhub_result_cache_stores_total',
      'Results stored in the result cache, by tool',
      ['tool'],
      this.registry,
    );
    // With HUB_PROCESSES > 1 a scrape sums every process's series (src/cluster/primary.ts):
    // a share or a flag says how it combines instead.
    const gauge = (name: string, help: string, read: () => number, aggregator: Aggregator = 'sum') =>
      new Gauge({
        name,
        help,
        registers,
        aggregator,
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
      'average',
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
      'max',
    );
    if (opts.limiterEvictable) {
      gauge(
        'toolhub_limiter_redis_evictable',
        "1 while the limiter's Redis has a maxmemory-policy that can evict limit keys (any but noeviction)",
        opts.limiterEvictable,
        'max',
      );
    }
    const cacheMemory = opts.cacheMemory;
    if (cacheMemory) {
      gauge(
        'toolhub_result_cache_memory_bytes',
        "Bytes held by the result cache's in-process layer (bounded by CACHE_MEMORY_BYTES)",
        () => cacheMemory().bytes,
      );
    }
    const leases = opts.leases;
    if (leases) {
      new Gauge({
        name: 'toolhub_client_leases_held',
        help: "Leases this instance holds on clients' concurrency slots in Redis, by tool",
        labelNames: ['tool'],
        registers,
        collect() {
          this.reset();
          for (const [tool, n] of leases().held) this.labels(tool).set(n);
        },
      });
      gauge(
        'toolhub_client_lease_releases_pending',
        'Lease releases that failed while Redis was away, given back when it answers again',
        () => leases().unreleased,
      );
    }
  }

  /**
   * `toolhub_processes{state}` for this process: 1 under `ready` or `not_ready` as `ready()`
   * says (docs/operations.md, "Health and readiness"); with HUB_PROCESSES > 1 the primary
   * adds the processes only it sees, and the scrape sums them (src/cluster/primary.ts).
   */
  processState(ready: () => boolean): void {
    new Gauge({
      ...PROCESSES_GAUGE,
      labelNames: [...PROCESSES_GAUGE.labelNames],
      registers: [this.registry],
      collect() {
        const now = ready();
        this.labels('ready').set(now ? 1 : 0);
        this.labels('not_ready').set(now ? 0 : 1);
        this.labels('starting').set(0);
        this.labels('down').set(0);
      },
    });
  }

  recordRun(run: RunRecord): void {
    this.runs.inc(run.tool, run.surface, run.source, run.outcome);
    this.tierRuns.inc(run.tier ?? 'none', run.outcome);
    if (run.durationMs !== undefined && run.durationMs > 0) {
      // Under a sampled trace (the run's span is active), the bucket keeps its ids as an exemplar.
      const trace = activeTraceIds();
      if (trace) this.runSeconds.observeTraced(run.durationMs / 1000, trace, run.tool);
      else this.runSeconds.observe(run.durationMs / 1000, run.tool);
    }
    if (run.queuedMs !== undefined) this.queueSeconds.observe(run.queuedMs / 1000, run.tool);
    if (run.outcome === 'RATE_LIMITED') this.rateLimited.inc(run.tool);
  }

  recordCacheHit(tool: string, layer: 'memory' | 'shared' | 'etag'): void {
    this.cacheHits.inc(tool, layer);
  }

  recordCacheMiss(tool: string): void {
    this.cacheMisses.inc(tool);
  }

  recordCacheWrite(tool: string): void {
    this.cacheWrites.inc(tool);
  }

  recordHttp(
    method: string,
    route: string,
    status: number,
    seconds: number,
    trace: Record<string, string> | null = null,
  ): void {
    if (trace) this.httpSeconds.observeTraced(seconds, trace, method, route, String(status));
    else this.httpSeconds.observe(seconds, method, route, String(status));
  }
}
