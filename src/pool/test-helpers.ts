import type { RunEnvelope } from '../shared/envelope.js';
import { cellMemory, RunCells } from '../shared/run-cells.js';
import type { WorkerBatch } from './lane.js';
import type { RunOutcome } from './outcome.js';
import type { PendingRun } from './pending-run.js';
import { poolCapacity, Scheduler, type SchedulerOptions } from './scheduler.js';
import { POOL_TUNING, type PoolTuning } from './tuning.js';
import type { WorkerPort } from './worker-port.js';

/** Fake worker threads: they record what the scheduler asks of them; CPU times are set by the test. */
export class FakeWorkers implements WorkerPort {
  readonly sent: WorkerBatch[] = [];
  readonly aborted: WorkerBatch[] = [];
  readonly lowered: number[] = [];
  readonly cpu = new Map<number, number>();

  send(batch: WorkerBatch): void {
    this.sent.push(batch);
  }
  abort(batch: WorkerBatch): void {
    this.aborted.push(batch);
  }
  lower(tid: number): boolean {
    this.lowered.push(tid);
    return true;
  }
  cpuMs(tid: number): number | null {
    return this.cpu.get(tid) ?? null;
  }
}

let nextCell = 0;

/** A waiting run of `toolId`, for the queue alone (no scheduler): each in its own cell. */
export function pendingRun(toolId: string, bytes = 10): PendingRun {
  const now = Date.now();
  return {
    toolId,
    mode: 'm',
    input: {},
    cell: nextCell++,
    timeoutMs: 1000,
    enqueuedAt: now,
    waitingSince: now,
    bytes,
    held: false,
    lowered: null,
    returns: 0,
    settle: () => {},
  };
}

/** A submitted run: its outcome once settled. */
export interface Ticket {
  outcome: RunOutcome | undefined;
}

/** The defaults of a small pool: 2 active workers on the main lane, 1 on the slow lane. */
const OPTIONS: SchedulerOptions = { threads: 2, overflow: 4, maxQueue: 16, queueWaitMs: 30_000, heapMb: 128 };

/**
 * A scheduler over fake workers and a fake clock (`now`, moved by the test): the test
 * plays the workers' side of the run cells (claim, start time) and their answers.
 */
export class Rig {
  readonly workers = new FakeWorkers();
  readonly scheduler: Scheduler;
  readonly cells: RunCells;
  readonly tuning: PoolTuning;
  now = 1_000_000;
  private readonly startedAt: BigInt64Array;

  constructor(opts: Partial<SchedulerOptions> = {}, tuning: Partial<PoolTuning> = {}) {
    const o = { ...OPTIONS, ...opts };
    this.tuning = { ...POOL_TUNING, ...tuning };
    const memory = cellMemory(poolCapacity(o));
    this.startedAt = new BigInt64Array(memory.startedAt);
    this.cells = new RunCells(memory);
    this.scheduler = new Scheduler(this.cells, this.workers, o, this.tuning);
  }

  submit(toolId: string, timeoutMs = 1000, bytes = 10): Ticket {
    const ticket: Ticket = { outcome: undefined };
    const call = { toolId, mode: 'm', input: {}, timeoutMs, bytes };
    this.scheduler.submit(call, this.now, (outcome) => {
      ticket.outcome = outcome;
    });
    return ticket;
  }

  /** Dispatches; returns the batches sent by it. */
  dispatch(): WorkerBatch[] {
    const before = this.workers.sent.length;
    this.scheduler.dispatch(this.now);
    return this.workers.sent.slice(before);
  }

  /** The worker of `batch` (thread `tid`) starts its run at `index` now. */
  start(batch: WorkerBatch, index = 0, how: { first?: boolean; tid?: number } = {}): PendingRun {
    const run = batch.items[index]!;
    if (!this.cells.claim(run.cell, batch.id, how.tid ?? 100 + batch.id, how.first === true)) {
      throw new Error('the run was taken back');
    }
    this.startedAt[run.cell] = BigInt(this.now);
    return run;
  }

  /** The worker of `batch` ends its run at `index` (its result travels with the batch's answer). */
  finishRun(batch: WorkerBatch, index: number): void {
    this.cells.finish(batch.items[index]!.cell, batch.id);
  }

  /** Moves the clock by `ms` and sweeps. */
  advance(ms: number): void {
    this.now += ms;
    this.scheduler.sweep(this.now);
  }

  /** The worker answers every run still in `batch`: each ok after `durationMs`. */
  answer(batch: WorkerBatch, durationMs: number, first = false): void {
    const answers = batch.items.map((run): RunEnvelope | null => {
      if (this.cells.phase(run.cell, batch.id) === null) return null; // taken back
      return { ok: true, json: '{}', durationMs, ...(first && { first: true as const }) };
    });
    this.scheduler.finished(batch, answers, this.now);
  }

  /** The worker of `batch` ended without answering (terminated, out of memory, crashed). */
  fail(batch: WorkerBatch, err: unknown = new Error('worker died')): void {
    this.scheduler.failed(batch, err, this.now);
  }

  /** `n` runs of `toolId` that each took `ms`, one after another: the scheduler learns the tool. */
  train(toolId: string, ms: number, n = 60): void {
    for (let i = 0; i < n; i++) {
      this.submit(toolId);
      const [batch] = this.dispatch();
      this.start(batch!);
      this.answer(batch!, ms, i === 0);
    }
  }
}
