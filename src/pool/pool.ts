import { setFlagsFromString } from 'node:v8';
import type { BatchAnswer, RunBatch } from '../shared/envelope.js';
import { EVENTS } from '../shared/events.js';
import { MAX_BATCH_ID, RunSlots, sharedSlots } from '../shared/run-slots.js';
import type { ToolInput } from '../shared/tool-def.js';
import { Batcher, type LaneKind, type PendingRun } from './batcher.js';
import type { InFlightBatch } from './lane.js';
import { Lane } from './lane.js';
import {
  busyOutcome,
  failedRunOutcome,
  outcomeOf,
  type RunOutcome,
  shutdownOutcome,
  stoppedByClose,
  unstartedRunOutcome,
} from './outcome.js';
import { sweepBatch } from './sweep.js';
import { lowerPriority, threadCpuMs, Workers } from './workers.js';

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

export interface PoolOptions {
  threads: number;
  overflow: number;
  maxQueue: number;
  queueWaitMs: number;
  heapMb: number;
  resultMaxBytes: number;
  /** toolId → run module path. */
  tools: Record<string, string>;
}

/** One run for the pool: the tool's mode and named input, and its policy's bounds. */
export interface PoolRun {
  toolId: string;
  mode: string;
  input: ToolInput;
  timeoutMs: number;
  /** UTF-8 bytes of the input (batches are kept small). */
  bytes: number;
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

/** How often deadlines and queue waits are checked: one timer for every run in flight. */
const SWEEP_MS = 10;
/** A run holding its worker longer than this lets the runs queued behind it go elsewhere. */
const TAKE_BACK_AFTER_MS = 20;
/** A run holding its worker longer than this is held: it stops counting as active. */
const HOLD_AFTER_MS = 100;
/**
 * A worker's first run of a tool may include lazy set-up its `prepare` export does not
 * cover (tables built inside the run: hundreds of ms, seconds on a loaded machine). Holding
 * it at once would send the next run of the tool to another worker, which builds the same
 * tables, and so on; holding a runaway late keeps good runs waiting. Until a first run of the tool has succeeded such a run is held after
 * FIRST_RUN_MS, then after twice what first runs of the tool take.
 */
const FIRST_RUN_MS = 250;
/**
 * A held run's thread gets a lower priority only when its tool has had a run pass its
 * deadline within RUNS_AWAY_MS (a tool known to run away), and once the run has gone
 * LOWER_FACTOR times as long as the tool's successful runs usually take (first runs on a
 * worker compared with first runs), and at least LOWER_AFTER_MS. Lowering a legitimate
 * run starves it on a loaded machine; lowering a runaway costs nothing.
 */
const RUNS_AWAY_MS = 60_000;
const LOWER_FACTOR = 4;
const LOWER_AFTER_MS = 250;
/** A lowered run is charged its CPU time, but never runs longer than this many timeoutMs. */
export const LOWERED_DEADLINE_FACTOR = 2;
/** Overflow workers idle this long leave. */
const IDLE_TIMEOUT_MS = 30_000;
/**
 * How many times a run goes back to the queue because a batch it did not cause failed
 * (a batch-mate crashed its worker, the worker could not start, the run's own tool killed
 * its worker while loading); the next such failure settles it (docs/architecture.md,
 * "Batching and take-back"). Without a bound such a run was sent again forever.
 */
export const MAX_RETURNS = 3;

/**
 * The worker threads; runs never execute on the API thread. `threads` batches run at once
 * at normal priority (the active workers). A run that holds its worker past HOLD_AFTER_MS
 * (FIRST_RUN_MS for a set-up) is *held*: it no longer counts as active (and later its
 * thread's priority is lowered), so another batch starts on the spare or on an overflow
 * worker, which counts as active, so another batch starts on the spare or on an overflow worker. Good
 * runs thus keep flowing beside runaways, of other tools and of the same tool, until the
 * runaways meet their deadlines. Held runs are bounded by the spare plus `overflow`.
 * Waiting runs are ordered here (src/pool/batcher.ts), not in Piscina's queue.
 * Capacity is `threads + maxQueue` runs: past it a run is refused at once
 * (CONCURRENCY_LIMIT, 503) instead of growing a queue nobody will wait for.
 */
export class ToolPool {
  private readonly opts: PoolOptions;
  private readonly slots: RunSlots;
  private readonly freeSlots: number[];
  private readonly batcher = new Batcher();
  /** By name; `lanes` lists both for what is done to each. */
  private readonly lane: Record<LaneKind, Lane>;
  private readonly lanes: Lane[];
  private nextBatchId = 0;
  private dispatchScheduled = false;
  private sweeper: NodeJS.Timeout | null = null;
  private warming: Promise<void> | null = null;
  private loaded = false;
  private closing = false;

  constructor(opts: PoolOptions) {
    linearRegexFallback();
    this.opts = opts;
    const capacity = opts.threads + opts.maxQueue;
    const shared = sharedSlots(capacity);
    this.slots = new RunSlots(shared);
    this.freeSlots = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    const lane = (kind: LaneKind, active: number) =>
      new Lane(
        kind,
        active,
        new Workers({
          threads: active,
          overflow: opts.overflow,
          heapMb: opts.heapMb,
          idleTimeoutMs: IDLE_TIMEOUT_MS,
          workerData: { tools: opts.tools, slots: shared },
          onError: (err) => EVENTS.workerError.publish({ source: this, err }),
        }),
      );
    this.lane = { main: lane('main', opts.threads), slow: lane('slow', Math.max(1, opts.threads - 1)) };
    this.lanes = [this.lane.main, this.lane.slow];
  }

  /** Resolves when the minimum workers are up; started once. `/readyz` says not ready until then. */
  warmUp(): Promise<void> {
    this.warming ??= Promise.all(this.lanes.map((lane) => lane.workers.warmUp())).then(() => {
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
    return this.closing;
  }

  run(call: PoolRun): Promise<RunOutcome> {
    // After close() nothing starts any more: refused like a request arriving while closing.
    if (this.closing) return Promise.resolve(shutdownOutcome(0));
    const slot = this.freeSlots.pop();
    if (slot === undefined) return Promise.resolve(busyOutcome(0));
    return new Promise((resolve) => {
      const settle = (outcome: RunOutcome) => {
        this.slots.clear(slot);
        this.freeSlots.push(slot);
        resolve(outcome);
      };
      const now = Date.now();
      // Written out, not spread: a spread of the caller's object is a slow generic copy on
      // the hot path (docs/benchmarks.md, "What was done").
      this.batcher.enqueue({
        toolId: call.toolId,
        mode: call.mode,
        input: call.input,
        timeoutMs: call.timeoutMs,
        bytes: call.bytes,
        slot,
        enqueuedAt: now,
        waitingSince: now,
        held: false,
        lowered: null,
        returns: 0,
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

  /**
   * Sends batches while a lane has an active worker free and a worker thread left for it.
   * Once closing, it settles the waiting runs instead: a closing Piscina rejects every new
   * task at once, and sending runs there only to queue them again looped forever (issue 19).
   */
  private dispatch(): void {
    if (this.closing) {
      const now = Date.now();
      for (const run of this.batcher.drain()) run.settle(shutdownOutcome(now - run.enqueuedAt));
      return;
    }
    for (const lane of this.lanes) {
      while (lane.free) {
        const items = this.batcher.take(lane.kind, lane.active, lane.full);
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
      held: null,
    };
    for (const run of items) this.slots.assign(run.slot, batch.id);
    lane.inPool.add(batch);
    EVENTS.batchSent.publish({ source: this, runs: items.length });
    const task: RunBatch = {
      batch: batch.id,
      items: items.map(({ toolId, mode, input, slot }) => ({ toolId, mode, input, slot })),
      resultMaxBytes: this.opts.resultMaxBytes,
    };
    lane.workers.piscina.run(task, { signal: batch.controller.signal }).then(
      (answers) => this.finished(batch, answers),
      (err: unknown) => this.failed(batch, err),
    );
  }

  private leave(batch: InFlightBatch): void {
    batch.lane.inPool.delete(batch);
    if (batch.held) batch.lane.held--;
    batch.held = null;
  }

  private finished(batch: InFlightBatch, answers: BatchAnswer): void {
    this.leave(batch);
    batch.items.forEach((run, i) => {
      const envelope = answers[i];
      if (!envelope) return; // taken back: it is queued again
      this.batcher.done(run, envelope.durationMs, { first: envelope.first === true, ok: envelope.ok });
      run.settle(outcomeOf(envelope, this.queuedMs(run)));
    });
    this.dispatch();
  }

  /**
   * The batch's worker was terminated (a deadline), ran out of memory or crashed. The run
   * that was running gets the failure; the others did nothing wrong and run again
   * (tools are pure functions: a result lost with the worker is simply computed again),
   * up to MAX_RETURNS times; while closing they are settled with the shutdown refusal.
   */
  private failed(batch: InFlightBatch, err: unknown): void {
    this.leave(batch);
    if (!this.closing) EVENTS.workerRestart.publish({ source: this });
    // A worker the closing pool stopped has no culprit: its runs all get the shutdown refusal.
    const stopped = this.closing && !batch.overdue && stoppedByClose(err);
    const culprit = stopped
      ? null
      : (batch.overdue ?? batch.items.find((run) => this.slots.phase(run.slot, batch.id) === 'running'));
    const again: PendingRun[] = [];
    for (const run of batch.items) {
      const phase = this.slots.phase(run.slot, batch.id);
      if (phase === null) continue; // taken back earlier: already queued again
      if (run !== culprit) {
        this.batcher.returned(run);
        this.slots.clear(run.slot);
        if (this.closing) run.settle(shutdownOutcome(this.queuedMs(run)));
        else if (++run.returns > MAX_RETURNS)
          run.settle(unstartedRunOutcome(err, this.queuedMs(run), run.returns, this.opts.heapMb));
        else again.push(run);
        continue;
      }
      const ctx = {
        timedOut: batch.overdue === run,
        timeoutMs: run.timeoutMs,
        heapMb: this.opts.heapMb,
        startedAt: this.slots.startedAt(run.slot),
      };
      const outcome = failedRunOutcome(err, this.queuedMs(run), ctx);
      // The time it held the worker counts: a tool whose runs hit their deadline is slow.
      this.batcher.done(run, outcome.durationMs, { first: false, ok: false, overdue: batch.overdue === run });
      run.settle(outcome);
    }
    this.batcher.requeue(again);
    this.dispatch();
  }

  private queuedMs(run: PendingRun): number {
    const started = this.slots.startedAt(run.slot);
    return started === 0 ? Date.now() - run.enqueuedAt : Math.max(0, started - run.enqueuedAt);
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Deadlines, take-backs, held runs, and the queue-wait bound. */
  private sweep(): void {
    const now = Date.now();
    const times = { now, takeBackAfterMs: TAKE_BACK_AFTER_MS };
    for (const batch of this.lanes.flatMap((lane) => [...lane.inPool])) {
      if (batch.overdue) continue;
      const { overdue, takenBack, running, ranMs } = sweepBatch(this.slots, batch, times);
      for (const run of takenBack) this.batcher.returned(run);
      this.batcher.requeue(takenBack, now);
      const usual = running && this.usualMs(running);
      if (running && ranMs > holdAfter(usual!)) {
        if (batch.held !== running) this.hold(batch, running);
        const runsAway = this.batcher.runsAway(running.toolId, RUNS_AWAY_MS, now);
        if (batch.held === running && runsAway && ranMs > lowerAfter(usual!)) this.lower(running, now);
      } else if (batch.held) {
        // Its held run ended and a batch-mate runs now: the batch is active again.
        batch.held = null;
        batch.lane.held--;
      }
      if (overdue && this.pastDeadline(overdue, ranMs)) {
        batch.overdue = overdue;
        batch.controller.abort();
      }
    }
    // Start what can start before expiring what waited too long: a run a held batch just
    // made room for is not refused.
    this.dispatch();
    for (const run of this.batcher.expire(now, this.opts.queueWaitMs)) {
      run.settle(busyOutcome(now - run.enqueuedAt, this.opts.queueWaitMs));
    }
    const inPool = this.lanes.reduce((n, lane) => n + lane.inPool.size, 0);
    if (inPool === 0 && this.batcher.queued === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /**
   * `run` has held its worker long enough (holdAfter). While a worker thread is left for it
   * (the spare or overflow), the batch stops counting as active (its thread's priority is
   * lowered later: lowerAfter); otherwise it stays active and its tool waits (the
   * batcher's rule).
   */
  private hold(batch: InFlightBatch, run: PendingRun): void {
    if (!batch.held && batch.lane.full) return;
    if (!batch.held) batch.lane.held++;
    batch.held = run;
    this.batcher.hold(run);
  }

  /** What successful runs like `run` usually take (first runs on a worker apart); null: not known. */
  private usualMs(run: PendingRun): Usual {
    const first = this.slots.firstRun(run.slot);
    return { first, ms: this.batcher.usualMs(run.toolId, first) };
  }

  /** Lowers the CPU priority of a held run's thread, once (the worker restores it after the run). */
  /** Lowers the run's thread priority, once; from then on it is charged its CPU time (pastDeadline). */
  private lower(run: PendingRun, now: number): void {
    const tid = this.slots.threadOf(run.slot);
    if (tid > 0 && this.slots.lower(run.slot) && lowerPriority(tid)) {
      run.lowered = { at: now, cpuMs: threadCpuMs(tid) };
    }
  }

  /**
   * A run whose priority the pool lowered is charged the CPU time it got since, not the
   * time it waited for a CPU at low priority: on a busy machine a legitimate run would
   * otherwise be starved past its deadline by the pool itself. Wall time still bounds it,
   * at LOWERED_DEADLINE_FACTOR times its timeoutMs.
   */
  private pastDeadline(run: PendingRun, ranMs: number): boolean {
    if (!run.lowered || run.lowered.cpuMs === null) return true;
    if (ranMs > run.timeoutMs * LOWERED_DEADLINE_FACTOR) return true;
    const cpuNow = threadCpuMs(this.slots.threadOf(run.slot));
    if (cpuNow === null) return true;
    const started = now0(this.slots.startedAt(run.slot));
    const charged = run.lowered.at - started + (cpuNow - run.lowered.cpuMs);
    return charged > run.timeoutMs;
  }

  /** `threads`: active batches at once on the main lane (POOL_THREADS); `workers`: threads alive now. */
  stats(): PoolStats {
    const capacity = this.opts.threads + this.opts.maxQueue;
    const sum = (pick: (lane: Lane) => number) => this.lanes.reduce((n, lane) => n + pick(lane), 0);
    return {
      threads: this.opts.threads,
      slowThreads: this.lane.slow.active,
      maxWorkers: sum((lane) => lane.workers.max),
      workers: sum((lane) => lane.workers.piscina.threads.length),
      held: sum((lane) => lane.held),
      queueSize: this.batcher.queued + sum((lane) => lane.workers.piscina.queueSize),
      utilization: sum((lane) => lane.workers.piscina.utilization) / this.lanes.length,
      capacity,
      inUse: capacity - this.freeSlots.length,
    };
  }

  /**
   * Stops the workers. Runs still waiting are settled at once with the shutdown refusal
   * (CONCURRENCY_LIMIT, 503), as are runs that arrive from now on and runs Piscina's close
   * stops on a worker: the server has answered every request by now, but runs of requests
   * whose clients went away may still be here (docs/architecture.md, "Batching and take-back").
   */
  async close(): Promise<void> {
    this.closing = true;
    this.dispatch();
    // Workers still starting hold nothing worth waiting for (no run is left by now):
    // terminate them instead of waiting, which on a starved machine kept shutdown
    // hanging for tens of seconds.
    await Promise.all(
      this.lanes.map(({ workers: { piscina } }) => (this.loaded ? piscina.close() : piscina.destroy())),
    );
    if (this.sweeper) clearInterval(this.sweeper);
  }
}

interface Usual {
  first: boolean;
  ms: number | null;
}

function holdAfter(usual: Usual): number {
  if (!usual.first) return HOLD_AFTER_MS;
  return usual.ms === null ? FIRST_RUN_MS : Math.max(HOLD_AFTER_MS, 2 * usual.ms);
}

function lowerAfter(usual: Usual): number {
  return Math.max(holdAfter(usual), LOWER_AFTER_MS, LOWER_FACTOR * (usual.ms ?? 0));
}

/** A start time of 0 (not stamped yet) reads as now. */
function now0(startedAt: number): number {
  return startedAt === 0 ? Date.now() : startedAt;
}
