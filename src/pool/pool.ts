import { setFlagsFromString } from 'node:v8';
import type { RunBatch } from '../shared/envelope.js';
import { EVENTS } from '../shared/events.js';
import { cellMemory, RunCells } from '../shared/run-cells.js';
import type { WorkerBatch } from './lane.js';
import type { RunOutcome } from './outcome.js';
import type { LaneKind, PoolRun } from './pending-run.js';
import { poolCapacity, Scheduler, type SchedulerOptions } from './scheduler.js';
import { POOL_TUNING, type PoolTuning } from './tuning.js';
import { lowerPriority, threadCpuMs, Workers } from './workers.js';

export type { PoolRun } from './pending-run.js';
/** src/app.ts imports it from here. */
export { LOWERED_DEADLINE_FACTOR } from './tuning.js';

export interface PoolStats {
  threads: number;
  /** Active runs of slow tools at once, on the slow lane. */
  slowThreads: number;
  /** Most worker threads at once: active, the spare and overflow. */
  maxWorkers: number;
  workers: number;
  /** Runs held now: running past the hold threshold on overflow capacity. */
  held: number;
  queueSize: number;
  utilization: number;
  capacity: number;
  inUse: number;
}

export interface PoolOptions extends SchedulerOptions {
  resultMaxBytes: number;
  /** toolId → run module path. */
  tools: Record<string, string>;
  /** Its workers skip the network guard (a pool group of tools allowed the network). */
  networkEnabled?: boolean;
  /** The `source` of its EVENTS (default: itself); pool groups publish as the whole pool. */
  eventSource?: object;
}

/**
 * Process-wide V8 flag (the workers a pool starts inherit it): a regex that backtracks too
 * much falls back to V8's linear-time engine. It does not cover `u`-flag patterns or
 * backreferences, so the deadline stays the last line. Set when a pool is built, not when
 * this module is imported.
 */
function linearRegexFallback(): void {
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}

/**
 * The worker threads; runs never execute on the API thread. This executor owns the
 * workers (two Piscina lanes), the one sweep timer and the clock, and applies what the
 * scheduler (src/pool/scheduler.ts) decides: it has no thresholds of its own, its numbers
 * come from the PoolTuning it is given (docs/architecture.md, "The pool").
 */
export class ToolPool {
  private readonly opts: PoolOptions;
  private readonly tuning: PoolTuning;
  private readonly scheduler: Scheduler;
  private readonly workers: Record<LaneKind, Workers>;
  /** Both lanes' workers, for what is done to each. */
  private readonly lanes: Workers[];
  private readonly controllers = new Map<WorkerBatch, AbortController>();
  private dispatchScheduled = false;
  private sweeper: NodeJS.Timeout | null = null;
  private warming: Promise<void> | null = null;
  private loaded = false;
  private readonly source: object;

  constructor(opts: PoolOptions, tuning: PoolTuning = POOL_TUNING) {
    linearRegexFallback();
    this.opts = opts;
    this.source = opts.eventSource ?? this;
    this.tuning = tuning;
    const memory = cellMemory(poolCapacity(opts));
    this.scheduler = new Scheduler(
      new RunCells(memory),
      {
        send: (batch) => this.send(batch),
        abort: (batch) => this.controllers.get(batch)?.abort(),
        lower: (tid) => lowerPriority(tid, tuning.heldNice),
        cpuMs: threadCpuMs,
      },
      opts,
      tuning,
    );
    const lane = (kind: LaneKind) =>
      new Workers({
        min: this.scheduler.lane[kind].min,
        max: this.scheduler.lane[kind].max,
        heapMb: opts.heapMb,
        youngGenerationMb: tuning.youngGenerationMb,
        idleTimeoutMs: tuning.idleTimeoutMs,
        workerData: { tools: opts.tools, cells: memory, networkEnabled: opts.networkEnabled === true },
        onError: (err) => EVENTS.workerError.publish({ source: this.source, err }),
      });
    this.workers = { main: lane('main'), slow: lane('slow') };
    this.lanes = [this.workers.main, this.workers.slow];
  }

  /** Resolves when the minimum workers are up; started once. `/readyz` says not ready until then. */
  warmUp(): Promise<void> {
    this.warming ??= Promise.all(this.lanes.map((w) => w.warmUp())).then(() => {
      this.loaded = true;
    });
    return this.warming;
  }

  /** True once the minimum workers are up. */
  get warm(): boolean {
    return this.loaded;
  }

  /** True once close() was called: a warm-up that fails after it was cut short, not broken. */
  get closed(): boolean {
    return this.scheduler.closing;
  }

  run(call: PoolRun): Promise<RunOutcome> {
    return new Promise((resolve) => {
      if (!this.scheduler.submit(call, Date.now(), resolve)) return;
      this.startSweeper();
      // Dispatch after this turn's I/O, so that runs arriving together travel together.
      if (!this.dispatchScheduled) {
        this.dispatchScheduled = true;
        setImmediate(() => {
          this.dispatchScheduled = false;
          this.scheduler.dispatch(Date.now());
        });
      }
    });
  }

  /** Starts a batch the scheduler sent on a worker of its lane; its end goes back to the scheduler. */
  private send(batch: WorkerBatch): void {
    const controller = new AbortController();
    this.controllers.set(batch, controller);
    EVENTS.batchSent.publish({ source: this.source, runs: batch.items.length });
    const task: RunBatch = {
      batch: batch.id,
      items: batch.items.map(({ toolId, mode, input, cell }) => ({ toolId, mode, input, cell })),
      resultMaxBytes: this.opts.resultMaxBytes,
    };
    this.workers[batch.lane.kind].piscina.run(task, { signal: controller.signal }).then(
      (answers) => {
        this.controllers.delete(batch);
        this.scheduler.finished(batch, answers, Date.now());
      },
      (err: unknown) => {
        this.controllers.delete(batch);
        // Terminated (a deadline), out of memory or crashed: Piscina replaces the worker.
        if (!this.scheduler.closing) EVENTS.workerRestart.publish({ source: this.source });
        this.scheduler.failed(batch, err, Date.now());
      },
    );
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), this.tuning.sweepMs);
    this.sweeper.unref();
  }

  private sweep(): void {
    this.scheduler.sweep(Date.now());
    if (this.scheduler.idle && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** `threads`: active batches at once on the main lane (POOL_THREADS); `workers`: threads alive now. */
  stats(): PoolStats {
    const sum = (pick: (w: Workers) => number) => this.lanes.reduce((n, w) => n + pick(w), 0);
    return {
      threads: this.opts.threads,
      slowThreads: this.scheduler.lane.slow.active,
      maxWorkers: sum((w) => w.max),
      workers: sum((w) => w.piscina.threads.length),
      held: this.scheduler.held,
      queueSize: this.scheduler.batcher.queued + sum((w) => w.piscina.queueSize),
      utilization: sum((w) => w.piscina.utilization) / this.lanes.length,
      capacity: this.scheduler.capacity,
      inUse: this.scheduler.inUse,
    };
  }

  /**
   * Stops the workers. Runs still waiting are settled at once with the shutdown refusal
   * (CONCURRENCY_LIMIT, 503), as are runs that arrive from now on and runs Piscina's close
   * stops on a worker: the server has answered every request by now, but runs of requests
   * whose clients went away may still be here (docs/architecture.md, "Batching and take-back").
   */
  async close(): Promise<void> {
    this.scheduler.close(Date.now());
    // Workers still starting hold nothing worth waiting for (no run is left by now):
    // terminate them instead of waiting, which on a starved machine kept shutdown
    // hanging for tens of seconds.
    await Promise.all(this.lanes.map(({ piscina }) => (this.loaded ? piscina.close() : piscina.destroy())));
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
