import type { LaneKind, PendingRun } from './pending-run.js';
import { ToolStats } from './tool-stats.js';
import { POOL_TUNING, type PoolTuning } from './tuning.js';

export type BatchTuning = Pick<PoolTuning, 'maxItems' | 'maxBatchMs' | 'maxBatchBytes'>;

/**
 * The runs waiting for a worker, and which of them go to the next free worker, and
 * together. Hand-written: Piscina has one FIFO queue, no task classes and no batching.
 *
 * - Runs of *fast* tools (recent mean under `maxBatchMs`) waiting at the same moment travel
 *   as one batch, in arrival order: one thread crossing instead of one per run. Other runs
 *   travel alone. A new tool starts with a mean of `newToolMeanMs`, so it travels alone
 *   until its runs show it fast.
 * - Each run goes to its tool's lane (ToolStats.laneOf), so runaways never terminate the
 *   main lane's workers and the warm state they hold (a tokenizer's tables).
 * - In each lane, held runs leave the active workers, so good runs keep flowing beside
 *   runaways. Once a lane has no room left for held runs, a tool with a held run gets only
 *   its share of the active workers (ToolStats.eligible); each tool's runs keep their order.
 */
export class Batcher {
  private readonly waiting: PendingRun[] = [];

  constructor(
    readonly tools: ToolStats = new ToolStats(),
    private readonly tuning: BatchTuning = POOL_TUNING,
  ) {}

  enqueue(run: PendingRun): void {
    this.waiting.push(run);
  }

  /** Puts runs that had to leave their batch back at the front of the queue, in order, their queue wait counted from `now`. */
  requeue(runs: PendingRun[], now: number): void {
    for (const run of runs) run.waitingSince = now;
    this.waiting.unshift(...runs);
  }

  /**
   * The next batch for a free worker of `lane` (oldest eligible run first), or null.
   * `active`: the lane's active workers; `full`: the lane has no room left for held runs.
   */
  take(lane: LaneKind, active: number, full = false): PendingRun[] | null {
    for (let i = 0; i < this.waiting.length; i++) {
      const first = this.waiting[i]!;
      const share = this.tools.of(first.toolId);
      if (this.tools.laneOf(share) !== lane || !this.tools.eligible(share, active, full)) continue;
      if (this.tools.batches(share)) return this.collect(i, active, full);
      this.waiting.splice(i, 1);
      this.tools.started(share);
      return [first];
    }
    return null;
  }

  /** From index `start`, the eligible runs of fast tools that fit in one batch; others left in place. */
  private collect(start: number, active: number, full: boolean): PendingRun[] {
    const batch: PendingRun[] = [];
    let ms = 0;
    let bytes = 0;
    let i = start;
    while (i < this.waiting.length && batch.length < this.tuning.maxItems) {
      const run = this.waiting[i]!;
      const share = this.tools.of(run.toolId);
      if (!this.tools.batches(share) || !this.tools.eligible(share, active, full)) {
        i++;
        continue;
      }
      if (
        batch.length > 0 &&
        (ms + share.meanMs > this.tuning.maxBatchMs || bytes + run.bytes > this.tuning.maxBatchBytes)
      ) {
        break;
      }
      this.waiting.splice(i, 1);
      this.tools.started(share);
      ms += share.meanMs;
      bytes += run.bytes;
      batch.push(run);
    }
    return batch;
  }

  /** Removes and returns the waiting runs that waited longer than `queueWaitMs` by `now`. */
  expire(now: number, queueWaitMs: number): PendingRun[] {
    const expired: PendingRun[] = [];
    for (let i = 0; i < this.waiting.length; ) {
      const run = this.waiting[i]!;
      if (now - run.waitingSince > queueWaitMs) {
        this.waiting.splice(i, 1);
        expired.push(run);
      } else {
        i++;
      }
    }
    return expired;
  }

  /** Removes and returns every waiting run (the pool is closing). */
  drain(): PendingRun[] {
    return this.waiting.splice(0);
  }

  /** Runs waiting for a worker (the queue depth). */
  get queued(): number {
    return this.waiting.length;
  }
}
