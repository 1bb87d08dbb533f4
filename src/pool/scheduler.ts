import type { BatchAnswer } from '../shared/envelope.js';
import { MAX_BATCH_ID, type RunCells } from '../shared/run-cells.js';
import { Batcher } from './batcher.js';
import { planFailedBatch } from './failed-batch.js';
import { Lane, laneSizes, type WorkerBatch } from './lane.js';
import {
  busyOutcome,
  failedRunOutcome,
  outcomeOf,
  type RunOutcome,
  shutdownOutcome,
  unstartedRunOutcome,
} from './outcome.js';
import type { LaneKind, PendingRun, PoolRun } from './pending-run.js';
import { type WatchParts, watchBatch } from './sweep.js';
import { ToolStats } from './tool-stats.js';
import { POOL_TUNING, type PoolTuning } from './tuning.js';
import type { WorkerPort } from './worker-port.js';

/** The operator's pool settings (docs/operations.md) the decisions depend on. */
export interface SchedulerOptions {
  /** POOL_THREADS: active workers of the main lane. */
  threads: number;
  /** POOL_OVERFLOW_THREADS: extra workers per lane for held runs. */
  overflow: number;
  /** POOL_MAX_QUEUE: runs that may wait beyond the active ones. */
  maxQueue: number;
  /** QUEUE_WAIT_MS: a run no worker took within it is refused. */
  queueWaitMs: number;
  /** WORKER_HEAP_MB, for the message of a worker out of heap. */
  heapMb: number;
}

/** Runs the pool holds at most, queued or running: `threads + maxQueue` (one run cell each). */
export function poolCapacity(opts: Pick<SchedulerOptions, 'threads' | 'maxQueue'>): number {
  return opts.threads + opts.maxQueue;
}

/**
 * The pool's decisions over time passed in: which runs queue and which are refused, which
 * batch goes to which lane, when a run is held, lowered or past its deadline, what a run's
 * outcome is when its batch ends, and when a waiting run has waited too long. No timers,
 * no clock and no Piscina: the executor calls it with the time and applies what it asks of
 * the workers through a WorkerPort.
 */
export class Scheduler {
  readonly tools: ToolStats;
  readonly batcher: Batcher;
  readonly lane: Record<LaneKind, Lane>;
  readonly lanes: readonly Lane[];
  readonly capacity: number;
  private readonly freeCells: number[];
  private readonly watch: WatchParts;
  private nextBatchId = 0;
  private closed = false;

  constructor(
    private readonly cells: RunCells,
    private readonly port: WorkerPort,
    private readonly opts: SchedulerOptions,
    private readonly tuning: PoolTuning = POOL_TUNING,
  ) {
    const capacity = poolCapacity(opts);
    this.capacity = capacity;
    this.freeCells = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    this.tools = new ToolStats(tuning);
    this.batcher = new Batcher(this.tools, tuning);
    const sizes = laneSizes(opts.threads, opts.overflow);
    this.lane = { main: new Lane('main', sizes.main), slow: new Lane('slow', sizes.slow) };
    this.lanes = [this.lane.main, this.lane.slow];
    this.watch = { cells, tools: this.tools, port, tuning };
  }

  /**
   * Queues a run at `now` (false: refused at once and resolved). Past capacity a run is
   * refused (CONCURRENCY_LIMIT, 503) instead of growing a queue nobody will wait for;
   * after close() nothing starts any more, as a request arriving while closing.
   */
  submit(call: PoolRun, now: number, resolve: (outcome: RunOutcome) => void): boolean {
    const cell = this.closed ? undefined : this.freeCells.pop();
    if (cell === undefined) {
      resolve(this.closed ? shutdownOutcome(0) : busyOutcome(0));
      return false;
    }
    const settle = (outcome: RunOutcome) => {
      this.cells.clear(cell);
      this.freeCells.push(cell);
      resolve(outcome);
    };
    // Written out, not spread: a spread of the caller's object is a slow generic copy on
    // the hot path (docs/benchmarks.md, "What was done").
    this.batcher.enqueue({
      toolId: call.toolId,
      mode: call.mode,
      input: call.input,
      timeoutMs: call.timeoutMs,
      bytes: call.bytes,
      cell,
      enqueuedAt: now,
      waitingSince: now,
      held: false,
      lowered: null,
      returns: 0,
      settle,
    });
    return true;
  }

  /**
   * Sends batches while a lane has an active worker free and a worker thread left for it.
   * Once closing, it settles the waiting runs instead: a closing Piscina rejects every new
   * task at once, and sending runs there only to queue them again looped forever (issue 19).
   */
  dispatch(now: number): void {
    if (this.closed) {
      for (const run of this.batcher.drain()) run.settle(shutdownOutcome(now - run.enqueuedAt));
      return;
    }
    for (const lane of this.lanes) {
      while (lane.free) {
        const items = this.batcher.take(lane.kind, lane.active, lane.full);
        if (!items) break;
        this.nextBatchId = (this.nextBatchId % MAX_BATCH_ID) + 1;
        const batch: WorkerBatch = { id: this.nextBatchId, lane, items, overdue: null, held: null };
        for (const run of items) this.cells.assign(run.cell, batch.id);
        lane.inPool.add(batch);
        this.port.send(batch);
      }
    }
  }

  /** The batch's worker answered: each run it ran is settled; runs taken back are queued already. */
  finished(batch: WorkerBatch, answers: BatchAnswer, now: number): void {
    batch.lane.leave(batch);
    batch.items.forEach((run, i) => {
      const envelope = answers[i];
      if (!envelope) return;
      this.tools.done(run, envelope.durationMs, { first: envelope.first === true, ok: envelope.ok });
      run.settle(outcomeOf(envelope, this.queuedMs(run, now)));
    });
    this.dispatch(now);
  }

  /** The batch's worker ended without answering: each run meets its fate (src/pool/failed-batch.ts). */
  failed(batch: WorkerBatch, err: unknown, now: number): void {
    batch.lane.leave(batch);
    const phaseOf = (run: PendingRun) => this.cells.phase(run.cell, batch.id);
    const again: PendingRun[] = [];
    for (const { run, fate } of planFailedBatch(batch, phaseOf, this.closed, err, this.tuning)) {
      if (fate === 'failed') {
        this.fail(batch, run, err, now);
        continue;
      }
      this.tools.returned(run);
      this.cells.clear(run.cell);
      if (fate === 'again') again.push(run);
      else if (fate === 'shutdown') run.settle(shutdownOutcome(this.queuedMs(run, now)));
      else run.settle(unstartedRunOutcome(err, this.queuedMs(run, now), run.returns, this.opts.heapMb));
    }
    this.batcher.requeue(again, now);
    this.dispatch(now);
  }

  private fail(batch: WorkerBatch, run: PendingRun, err: unknown, now: number): void {
    const timedOut = batch.overdue === run;
    const ctx = {
      timedOut,
      timeoutMs: run.timeoutMs,
      heapMb: this.opts.heapMb,
      startedAt: this.cells.startedAt(run.cell),
      now,
    };
    const outcome = failedRunOutcome(err, this.queuedMs(run, now), ctx);
    // The time it held the worker counts: a tool whose runs hit their deadline is slow.
    this.tools.done(run, outcome.durationMs, {
      first: false,
      ok: false,
      ...(timedOut && { overdueAt: now }),
    });
    run.settle(outcome);
  }

  /**
   * One sweep at `now`: take-backs, held runs, lowered threads and deadlines of every
   * batch in flight (src/pool/sweep.ts), then the queue-wait bound. It starts what can
   * start before expiring what waited too long: a run a held batch just made room for is
   * not refused.
   */
  sweep(now: number): void {
    for (const batch of this.lanes.flatMap((lane) => [...lane.inPool])) {
      if (batch.overdue) continue;
      const takenBack = watchBatch(this.watch, batch, now);
      for (const run of takenBack) this.tools.returned(run);
      this.batcher.requeue(takenBack, now);
    }
    this.dispatch(now);
    for (const run of this.batcher.expire(now, this.opts.queueWaitMs)) {
      run.settle(busyOutcome(now - run.enqueuedAt, this.opts.queueWaitMs));
    }
  }

  private queuedMs(run: PendingRun, now: number): number {
    const started = this.cells.startedAt(run.cell);
    return started === 0 ? now - run.enqueuedAt : Math.max(0, started - run.enqueuedAt);
  }

  /** Starts nothing more: waiting runs, and runs arriving or returned from now on, get the shutdown refusal. */
  close(now: number): void {
    this.closed = true;
    this.dispatch(now);
  }

  get closing(): boolean {
    return this.closed;
  }

  /** Nothing in flight and nothing waiting: the sweep may stop. */
  get idle(): boolean {
    return this.batcher.queued === 0 && this.lanes.every((lane) => lane.inPool.size === 0);
  }

  get held(): number {
    return this.lane.main.held + this.lane.slow.held;
  }

  /** Runs in the pool now, queued or running. */
  get inUse(): number {
    return this.capacity - this.freeCells.length;
  }
}
