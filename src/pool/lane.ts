import type { LaneKind } from './batcher.js';
import type { InFlightBatch } from './sweep.js';
import type { Workers } from './workers.js';

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
