import { setFlagsFromString } from 'node:v8';
import { Piscina } from 'piscina';
import { workerFile } from '../paths.js';
import type { BatchAnswer, PoolWorkerData, RunBatch } from '../shared/envelope.js';
import { MAX_BATCH_ID, sharedSlots } from '../shared/slot-state.js';
import type { ToolInput } from '../shared/tool-def.js';
import { Batcher, type PendingRun } from './batcher.js';
import { type InFlightBatch, SlotBoard, sweepBatch } from './deadlines.js';
import { busyOutcome, failedRunOutcome, outcomeOf, type RunOutcome } from './outcome.js';

export interface PoolStats {
  threads: number;
  workers: number;
  queueSize: number;
  utilization: number;
  capacity: number;
  inUse: number;
}

export interface PoolOptions {
  threads: number;
  maxQueue: number;
  queueWaitMs: number;
  heapMb: number;
  resultMaxBytes: number;
  /** toolId → run module path. */
  tools: Record<string, string>;
}

// Process-wide V8 flag (workers share it): a regex that backtracks too much falls back
// to V8's linear-time engine. It does not cover `u`-flag patterns or backreferences,
// so the deadline stays the last line (PERFORMANCE.md).
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** How often deadlines and queue waits are checked: one timer for every run in flight. */
const SWEEP_MS = 10;
/** A run holding its worker longer than this lets the runs queued behind it go elsewhere. */
const TAKE_BACK_AFTER_MS = 20;
/** Warm workers beyond `threads`, ready to take over from a terminated one. */
const SPARE_WORKERS = 1;

/**
 * The Piscina pool of worker threads; runs never execute on the API thread. Capacity is
 * `threads + maxQueue` runs: past it a run is refused at once (CONCURRENCY_LIMIT, 503)
 * instead of growing a queue nobody will wait for. At most `threads` batches are on the
 * workers at once, so Piscina's own queue stays empty and waiting runs are ordered here.
 * The pool keeps one worker more than that, warm: when a worker is terminated (a
 * deadline) the next batch goes to the spare at once while the replacement starts and
 * imports its tools, instead of waiting for it.
 */
export class ToolPool {
  readonly piscina: Piscina<RunBatch, BatchAnswer>;
  private readonly opts: PoolOptions;
  private readonly board: SlotBoard;
  private readonly freeSlots: number[];
  private readonly batcher: Batcher;
  private readonly inPool = new Set<InFlightBatch>();
  private nextBatchId = 0;
  private dispatchScheduled = false;
  private sweeper: NodeJS.Timeout | null = null;
  private initialWorkers: number;
  /** Workers created after the first ones: replacements of terminated or dead workers. */
  restarts = 0;
  onRestart: () => void = () => {};
  /** Called with the number of runs of every batch sent to a worker (metrics). */
  onBatch: (runs: number) => void = () => {};
  onError: (err: unknown) => void = () => {};

  constructor(opts: PoolOptions) {
    this.opts = opts;
    const capacity = opts.threads + opts.maxQueue;
    const slots = sharedSlots(capacity);
    this.board = new SlotBoard(slots);
    this.freeSlots = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    this.batcher = new Batcher(opts.threads);
    this.initialWorkers = opts.threads + SPARE_WORKERS;
    const workerData: PoolWorkerData = { tools: opts.tools, slots };
    this.piscina = new Piscina<RunBatch, BatchAnswer>({
      filename: workerFile,
      minThreads: opts.threads + SPARE_WORKERS,
      maxThreads: opts.threads + SPARE_WORKERS,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: capacity,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.heapMb,
        maxYoungGenerationSizeMb: Math.min(64, opts.heapMb / 4),
      },
      workerData,
    });
    // A worker that fails to start must not take the process down: log-worthy, and the
    // pool replaces it; a batch it held is rejected and mapped like any other failure.
    this.piscina.on('error', (err) => this.onError(err));
    this.piscina.on('workerCreate', () => {
      if (this.initialWorkers > 0) this.initialWorkers--;
      else {
        this.restarts++;
        this.onRestart();
      }
    });
  }

  /** Resolves when every worker has loaded its tools (readiness means the pool can serve). */
  async warmUp(): Promise<void> {
    const task: RunBatch = { batch: 0, items: [], resultMaxBytes: 0, warmup: true };
    const workers = this.opts.threads + SPARE_WORKERS;
    await Promise.all(Array.from({ length: workers }, () => this.piscina.run(task)));
  }

  run(toolId: string, mode: string, input: ToolInput, timeoutMs: number, bytes = 0): Promise<RunOutcome> {
    const slot = this.freeSlots.pop();
    if (slot === undefined) return Promise.resolve(busyOutcome(0));
    return new Promise((resolve) => {
      const settle = (outcome: RunOutcome) => {
        this.board.clear(slot);
        this.freeSlots.push(slot);
        resolve(outcome);
      };
      const now = Date.now();
      this.batcher.enqueue({
        toolId,
        mode,
        input,
        slot,
        timeoutMs,
        enqueuedAt: now,
        waitingSince: now,
        bytes,
        settle,
      });
      this.startSweeper();
      // Dispatch after this turn's I/O, so that runs arriving together travel together.
      if (!this.dispatchScheduled) {
        this.dispatchScheduled = true;
        setImmediate(() => {
          this.dispatchScheduled = false;
          this.dispatch();
        });
      }
    });
  }

  /** Sends batches to free workers while runs may go. */
  private dispatch(): void {
    while (this.inPool.size < this.opts.threads) {
      const items = this.batcher.take();
      if (!items) return;
      this.send(items);
    }
  }

  private send(items: PendingRun[]): void {
    this.nextBatchId = (this.nextBatchId % MAX_BATCH_ID) + 1;
    const batch: InFlightBatch = {
      id: this.nextBatchId,
      items,
      controller: new AbortController(),
      overdue: null,
    };
    for (const run of items) this.board.assign(run.slot, batch.id);
    this.inPool.add(batch);
    this.onBatch(items.length);
    const task: RunBatch = {
      batch: batch.id,
      items: items.map(({ toolId, mode, input, slot }) => ({ toolId, mode, input, slot })),
      resultMaxBytes: this.opts.resultMaxBytes,
    };
    this.piscina.run(task, { signal: batch.controller.signal }).then(
      (answers) => this.finished(batch, answers),
      (err: unknown) => this.failed(batch, err),
    );
  }

  private finished(batch: InFlightBatch, answers: BatchAnswer): void {
    this.inPool.delete(batch);
    // Keep the workers busy first; the answers are written afterwards.
    this.dispatch();
    batch.items.forEach((run, i) => {
      const envelope = answers[i];
      if (!envelope) return; // taken back: it is queued again
      this.batcher.done(run.toolId, envelope.durationMs);
      run.settle(outcomeOf(envelope, this.queuedMs(run)));
    });
  }

  /**
   * The batch's worker was terminated (a deadline), ran out of memory or crashed. The run
   * that was running gets the failure; the others did nothing wrong and run again
   * (tools are pure functions: a result lost with the worker is simply computed again).
   */
  private failed(batch: InFlightBatch, err: unknown): void {
    this.inPool.delete(batch);
    const culprit =
      batch.overdue ?? batch.items.find((run) => this.board.phase(run.slot, batch.id) === 'running');
    const again: PendingRun[] = [];
    for (const run of batch.items) {
      const phase = this.board.phase(run.slot, batch.id);
      if (phase === null) continue; // taken back earlier: already queued again
      this.batcher.returned(run.toolId);
      if (run !== culprit) {
        this.board.clear(run.slot);
        again.push(run);
        continue;
      }
      const startedAt = this.board.startedAt(run.slot);
      const ctx = {
        timedOut: batch.overdue === run,
        timeoutMs: run.timeoutMs,
        heapMb: this.opts.heapMb,
        startedAt,
      };
      run.settle(failedRunOutcome(err, this.queuedMs(run), ctx));
    }
    this.batcher.requeue(again);
    this.dispatch();
  }

  private queuedMs(run: PendingRun): number {
    const started = this.board.startedAt(run.slot);
    return started === 0 ? Date.now() - run.enqueuedAt : Math.max(0, started - run.enqueuedAt);
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Deadlines of running runs, take-backs from stuck batches, and the queue-wait bound. */
  private sweep(): void {
    const now = Date.now();
    for (const batch of this.inPool) {
      if (batch.overdue) continue;
      const { overdue, takenBack } = sweepBatch(this.board, batch, now, TAKE_BACK_AFTER_MS);
      for (const run of takenBack) this.batcher.returned(run.toolId);
      this.batcher.requeue(takenBack, now);
      if (overdue) {
        batch.overdue = overdue;
        batch.controller.abort();
      }
    }
    for (const run of this.batcher.expire(now, this.opts.queueWaitMs)) {
      run.settle(busyOutcome(now - run.enqueuedAt, this.opts.queueWaitMs));
    }
    this.dispatch();
    if (this.inPool.size === 0 && this.batcher.queued === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** `threads`: batches on workers at once (POOL_THREADS); `workers`: threads alive, the spare included. */
  stats(): PoolStats {
    const capacity = this.opts.threads + this.opts.maxQueue;
    return {
      threads: this.opts.threads,
      workers: this.piscina.threads.length,
      queueSize: this.batcher.queued + this.piscina.queueSize,
      utilization: this.piscina.utilization,
      capacity,
      inUse: capacity - this.freeSlots.length,
    };
  }

  /**
   * Stops the workers once their batches are done. The app closes the pool after the
   * server has answered every request, so no run is waiting here any more.
   */
  async close(): Promise<void> {
    await this.piscina.close();
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
