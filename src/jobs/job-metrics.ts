import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { JobQueue } from './job-queue.js';

export interface JobMetrics {
  finished(outcome: 'succeeded' | 'failed' | 'cancelled'): void;
  /** One webhook attempt; `latencySec` from the job's end to this attempt, when it delivered. */
  webhookAttempt(outcome: 'delivered' | 'failed' | 'refused' | 'timeout', latencySec?: number): void;
}

/** A scrape waits this long for the queue's counts, then shows the last ones it had. */
const COUNTS_WAIT_MS = 500;

/**
 * The jobs' instruments (docs/operations.md, "Jobs"). The backlog gauges read the shared
 * queue in Redis, so every instance reports the same numbers: `max`, never `sum`, when
 * processes are added up (src/cluster/primary.ts), and `max()` across replicas in a query.
 */
export function jobMetrics(registry: Registry, queue: JobQueue): JobMetrics {
  let last = { queued: 0, running: 0, delayed: 0, oldestAgeSec: 0 };
  let reading: Promise<void> | null = null;
  const refresh = async () => {
    reading ??= queue
      .backlog()
      .then((b) => {
        last = b;
      })
      .catch(() => {})
      .finally(() => {
        reading = null;
      });
    await Promise.race([reading, new Promise((r) => setTimeout(r, COUNTS_WAIT_MS).unref())]);
  };
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      aggregator: 'max',
      async collect() {
        await refresh();
        this.set(read());
      },
    });
  gauge(
    'toolhub_jobs_queued',
    'Jobs waiting to run, in the shared queue (waiting out their limits included)',
    () => last.queued + last.delayed,
  );
  gauge('toolhub_jobs_running', 'Jobs running now, on every instance', () => last.running);
  gauge(
    'toolhub_jobs_oldest_queued_age_seconds',
    'Age of the oldest job waiting to run (0: none waits)',
    () => last.oldestAgeSec,
  );
  const finished = new Counter({
    name: 'toolhub_jobs_finished_total',
    help: 'Jobs this instance finished, by outcome (succeeded, failed, cancelled)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'toolhub_webhook_attempts_total',
    help: 'Webhook attempts by outcome: delivered (2xx), failed (another status), timeout, refused (a private address)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'toolhub_webhook_delivery_seconds',
    help: "From a job's end to its webhook's delivery (2xx), retries included",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 1800, 7200],
    registers: [registry],
  });
  for (const o of ['succeeded', 'failed', 'cancelled']) finished.labels(o).inc(0);
  for (const o of ['delivered', 'failed', 'refused', 'timeout']) attempts.labels(o).inc(0);
  return {
    finished: (outcome) => finished.labels(outcome).inc(),
    webhookAttempt: (outcome, latencySec) => {
      attempts.labels(outcome).inc();
      if (latencySec !== undefined) latency.observe(latencySec);
    },
  };
}
