import { setFlagsFromString } from 'node:v8';
import type { BatchAnswer, RunBatch } from '../shared/envelope.js';
import { MAX_BATCH_ID, sharedSlots } from '../shared/slot-state.js';
import type { ToolInput } from '../shared/tool-def.js';
import { Batcher, type LaneSizes, type PendingRun } from './batcher.js';
import { type InFlightBatch, SlotBoard, sweepBatch } from './deadlines.js';
import { Lane, type LaneKind } from './lane.js';
import { busyOutcome, failedRunOutcome, outcomeOf, type RunOutcome } from './outcome.js';

export interface PoolStats {
  threads: number;
  slowThreads: number;
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
/** Nice value of the slow lane's workers (Linux: lower CPU priority; elsewhere ignored). */
const SLOW_LANE_NICE = 10;

/**
 * The worker threads; runs never execute on the API thread. Two lanes (src/pool/lane.ts):
 * `threads` batches of fast tools at once on the fast lane, and `max(1, threads - 1)` runs
 * of slow tools on the slow lane, at lower CPU priority. Each lane keeps one warm spare
 * worker: after a worker is terminated at a deadline, the lane's next run starts at once
 * while the replacement boots.
 * Piscina's own queues stay empty: waiting runs are ordered here (src/pool/batcher.ts).
 * Capacity is `threads + maxQueue` runs: past it a run is refused at once
 * (CONCURRENCY_LIMIT, 503) instead of growing a queue nobody will wait for.
 */
export class ToolPool {
  private readonly opts: PoolOptions;
  private readonly board: SlotBoard;
  private readonly freeSlots: number[];
  private readonly batcher = new Batcher();
  private readonly lanes: Lane[];
  private nextBatchId = 0;
  private dispatchScheduled = false;
  private sweeper: NodeJS.Timeout | null = null;
  private warming: Promise<void> | null = null;
  private loaded = false;
  private closing = false;
  /** Called for each worker created after the first ones: a replacement of a terminated or dead one. */
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
    const lane = (kind: LaneKind, size: number, spare: number, nice: number) =>
      new Lane({
        kind,
        capacity: size,
        spare,
        heapMb: opts.heapMb,
        workerData: { tools: opts.tools, slots, nice },
        onRestart: () => this.onRestart(),
        onError: (err) => this.onError(err),
      });
    this.lanes = [
      lane('fast', opts.threads, 1, 0),
      lane('slow', Math.max(1, opts.threads - 1), 1, SLOW_LANE_NICE),
    ];
  }

  private get slowLane(): Lane {
    return this.lanes[1]!;
  }

  private get laneSizes(): LaneSizes {
    return { fast: this.lanes[0]!.capacity, slow: this.slowLane.capacity };
  }

  /**
   * Resolves when every worker has loaded its tools; started once, later calls wait for the
   * same warm-up. The boot waits for it up to a bound (src/plugins/pool.ts); `/readyz` says
   * not ready until then.
   */
  warmUp(): Promise<void> {
    this.warming ??= Promise.all(this.lanes.map((lane) => lane.warmUp())).then(() => {
      this.loaded = true;
    });
    return this.warming;
  }

  /** True once close() was called: a warm-up that fails after it was cut short, not broken. */
  get closed(): boolean {
    return this.closing;
  }

  /** True once every worker has loaded its tools. */
  get warm(): boolean {
    return this.loaded;
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
    for (const lane of this.lanes) {
      while (lane.free) {
        const items = this.batcher.take(lane.kind, this.laneSizes);
        if (!items) break;
        this.send(lane, items);
      }
    }
  }

  private send(lane: Lane, items: PendingRun[]): void {
    this.nextBatchId = (this.nextBatchId % MAX_BATCH_ID) + 1;
    const batch: InFlightBatch = {
      id: this.nextBatchId,
      lane,
      items,
      controller: new AbortController(),
      overdue: null,
    };
    for (const run of items) this.board.assign(run.slot, batch.id);
    lane.inPool.add(batch);
    this.onBatch(items.length);
    const task: RunBatch = {
      batch: batch.id,
      items: items.map(({ toolId, mode, input, slot }) => ({ toolId, mode, input, slot })),
      resultMaxBytes: this.opts.resultMaxBytes,
    };
    lane.piscina.run(task, { signal: batch.controller.signal }).then(
      (answers) => this.finished(batch, answers),
      (err: unknown) => this.failed(batch, err),
    );
  }

  private finished(batch: InFlightBatch, answers: BatchAnswer): void {
    batch.lane.inPool.delete(batch);
    // Keep the workers busy first; the answers are written afterwards.
    this.dispatch();
    batch.items.forEach((run, i) => {
      const envelope = answers[i];
      if (!envelope) return; // taken back: it is queued again
      this.batcher.done(run.toolId, envelope.durationMs, envelope.first === true && envelope.ok);
      run.settle(outcomeOf(envelope, this.queuedMs(run)));
    });
  }

  /**
   * The batch's worker was terminated (a deadline), ran out of memory or crashed. The run
   * that was running gets the failure; the others did nothing wrong and run again
   * (tools are pure functions: a result lost with the worker is simply computed again).
   */
  private failed(batch: InFlightBatch, err: unknown): void {
    batch.lane.inPool.delete(batch);
    const culprit =
      batch.overdue ?? batch.items.find((run) => this.board.phase(run.slot, batch.id) === 'running');
    const again: PendingRun[] = [];
    for (const run of batch.items) {
      const phase = this.board.phase(run.slot, batch.id);
      if (phase === null) continue; // taken back earlier: already queued again
      if (run !== culprit) {
        this.batcher.returned(run.toolId);
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
      const outcome = failedRunOutcome(err, this.queuedMs(run), ctx);
      // The time it held the worker counts: a tool whose runs hit their deadline is slow.
      this.batcher.done(run.toolId, outcome.durationMs);
      run.settle(outcome);
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
    for (const batch of this.lanes.flatMap((lane) => [...lane.inPool])) {
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
    const inPool = this.lanes.reduce((n, lane) => n + lane.inPool.size, 0);
    if (inPool === 0 && this.batcher.queued === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /** `threads`: fast batches at once (POOL_THREADS); `workers`: threads alive, both lanes and the spare. */
  stats(): PoolStats {
    const capacity = this.opts.threads + this.opts.maxQueue;
    const sum = (pick: (lane: Lane) => number) => this.lanes.reduce((n, lane) => n + pick(lane), 0);
    return {
      threads: this.opts.threads,
      slowThreads: this.slowLane.capacity,
      workers: sum((lane) => lane.piscina.threads.length),
      queueSize: this.batcher.queued + sum((lane) => lane.piscina.queueSize),
      utilization: sum((lane) => lane.piscina.utilization) / this.lanes.length,
      capacity,
      inUse: capacity - this.freeSlots.length,
    };
  }

  /**
   * Stops the workers once their batches are done. The app closes the pool after the
   * server has answered every request, so no run is waiting here any more.
   */
  async close(): Promise<void> {
    this.closing = true;
    // Workers still loading their tools hold nothing worth waiting for (no run is left by
    // now): terminate them instead of waiting out the load, which on a starved machine
    // kept shutdown hanging for tens of seconds.
    await Promise.all(
      this.lanes.map((lane) => (this.loaded ? lane.piscina.close() : lane.piscina.destroy())),
    );
    if (this.sweeper) clearInterval(this.sweeper);
  }
}
