import type { LaneKind, PendingRun } from './batcher.js';
import type { Workers } from './workers.js';

/** A batch on a worker. */
export interface InFlightBatch {
  id: number;
  lane: Lane;
  items: PendingRun[];
  controller: AbortController;
  /** The run that passed its deadline: the batch was aborted (its worker terminated) for it. */
  overdue: PendingRun | null;
  /** The held run now running on this batch's worker: the batch does not count as active. */
  held: PendingRun | null;
}

/**
 * One lane of the pool: its workers (src/pool/workers.ts), the batches on them, and how
 * many of those are held. `active` batches run at normal priority at once; held batches
 * do not count, up to the spare and overflow workers the lane has for them.
 */
export class Lane {
  readonly inPool = new Set<InFlightBatch>();
  /** Batches whose running run is held. */
  held = 0;

  constructor(
    readonly kind: LaneKind,
    readonly active: number,
    readonly workers: Workers,
  ) {}

  /** An active worker is free, and a worker thread is left for it. */
  get free(): boolean {
    return this.inPool.size - this.held < this.active && this.inPool.size < this.workers.max;
  }

  /** No worker thread is left for another held run. */
  get full(): boolean {
    return this.held >= this.workers.max - this.active;
  }
}
