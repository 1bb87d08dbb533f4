import type { LaneKind, PendingRun } from './pending-run.js';

/** A batch on a worker. */
export interface WorkerBatch {
  /** Its id in the run cells (src/shared/run-cells.ts). */
  id: number;
  lane: Lane;
  items: PendingRun[];
  /** The run that passed its deadline: the batch was aborted (its worker terminated) for it. */
  overdue: PendingRun | null;
  /** The held run now running on this batch's worker: the batch does not count as active. */
  held: PendingRun | null;
}

/** How many workers a lane has: `active` at normal priority, one warm spare (`min`), and overflow (`max`). */
export interface LaneSize {
  active: number;
  min: number;
  max: number;
}

/**
 * The two lanes' sizes: the main lane has `threads` active workers, the slow lane
 * `max(1, threads - 1)`; each keeps one warm spare and may grow by `overflow` workers for
 * held runs.
 */
export function laneSizes(threads: number, overflow: number): Record<LaneKind, LaneSize> {
  const size = (active: number) => ({ active, min: active + 1, max: active + 1 + overflow });
  return { main: size(threads), slow: size(Math.max(1, threads - 1)) };
}

/**
 * One lane's bookkeeping: the batches on its workers and how many of those are held.
 * `active` batches run at normal priority at once; held batches do not count, up to the
 * spare and overflow workers the lane has for them (`max`).
 */
export class Lane {
  readonly inPool = new Set<WorkerBatch>();
  /** Batches whose running run is held. */
  held = 0;
  readonly active: number;
  readonly min: number;
  readonly max: number;

  constructor(
    readonly kind: LaneKind,
    size: LaneSize,
  ) {
    this.active = size.active;
    this.min = size.min;
    this.max = size.max;
  }

  /** An active worker is free, and a worker thread is left for it. */
  get free(): boolean {
    return this.inPool.size - this.held < this.active && this.inPool.size < this.max;
  }

  /** No worker thread is left for another held run. */
  get full(): boolean {
    return this.held >= this.max - this.active;
  }

  /**
   * `run` of `batch` has held its worker long enough. While a worker thread is left for it,
   * the batch stops counting as active; otherwise it stays active (false) and its tool
   * waits for its share (ToolStats.eligible).
   */
  hold(batch: WorkerBatch, run: PendingRun): boolean {
    if (!batch.held && this.full) return false;
    if (!batch.held) this.held++;
    batch.held = run;
    return true;
  }

  /** Its held run ended and a batch-mate runs now: the batch is active again. */
  release(batch: WorkerBatch): void {
    if (!batch.held) return;
    batch.held = null;
    this.held--;
  }

  /** The batch left its worker (answered or failed). */
  leave(batch: WorkerBatch): void {
    this.inPool.delete(batch);
    this.release(batch);
  }
}
