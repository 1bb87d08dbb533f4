import type { ToolInput } from '../shared/tool-def.js';
import type { LaneKind } from './lane.js';
import type { RunOutcome } from './outcome.js';

/** A run waiting for a worker, or travelling in a batch, until its outcome is known. */
export interface PendingRun {
  toolId: string;
  mode: string;
  input: ToolInput;
  slot: number;
  timeoutMs: number;
  enqueuedAt: number;
  /**
   * Since when the queue-wait bound counts: the enqueue, or the moment the run came back
   * from a batch it had to leave (time spent behind a failing batch-mate is not its fault).
   */
  waitingSince: number;
  /** UTF-8 bytes of the input, to keep one batch's message small. */
  bytes: number;
  settle: (outcome: RunOutcome) => void;
}

export interface BatchLimits {
  /** A tool whose recent runs average more than this is slow: its runs travel alone. */
  slowMs: number;
  maxItems: number;
  /** Sum of the tools' mean run times in one batch: how long the last run may wait behind the rest. */
  maxBatchMs: number;
  maxBatchBytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  slowMs: 50,
  maxItems: 32,
  maxBatchMs: 5,
  maxBatchBytes: 256 * 1024,
};

export interface LaneSizes {
  fast: number;
  slow: number;
}

interface ToolShare {
  /** Runs of the tool on workers now. */
  executing: number;
  /** Runs finished (successfully or not): 0 means the tool is on probation. */
  runs: number;
  /** Exponentially weighted mean run time. */
  meanMs: number;
}

/**
 * Decides which waiting runs go to the next free worker, and together. Hand-written:
 * Piscina has one FIFO queue, no task classes and no batching.
 *
 * - Runs of *fast* tools that are waiting at the same moment travel as one batch, in
 *   arrival order, to the fast lane: one thread crossing instead of one per run.
 * - A run of a *slow* tool (recent runs average over `slowMs`, e.g. catastrophic regexes
 *   timing out) travels alone, to the slow lane (src/pool/lane.ts). When that lane has
 *   several workers, one slow tool may hold all but one of them.
 * - A tool with no finished run is on probation: it runs on the fast lane, alone, one run
 *   at a time, and probation runs never take the whole fast lane (at most
 *   `max(1, fast - 1)` of them). Its mean starts at `slowMs` (not over it): fast runs
 *   bring it down into batches, one slow run moves the tool to the slow lane. New tools
 *   (after every boot) thus never queue behind runaway runs on the small slow lane, and
 *   a burst of first runs of a runaway tool costs one fast worker, not all of them.
 */
export class Batcher {
  private readonly waiting: PendingRun[] = [];
  private readonly tools = new Map<string, ToolShare>();

  constructor(private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS) {}

  enqueue(run: PendingRun): void {
    this.waiting.push(run);
  }

  /** Puts runs that had to leave their batch back at the front of the queue, in order. */
  requeue(runs: PendingRun[], now = Date.now()): void {
    for (const run of runs) run.waitingSince = now;
    this.waiting.unshift(...runs);
  }

  /** The next batch for a free worker of the `lane` (oldest eligible run first), or null. */
  take(lane: LaneKind, workers: LaneSizes): PendingRun[] | null {
    for (let i = 0; i < this.waiting.length; i++) {
      const first = this.waiting[i]!;
      const share = this.share(first.toolId);
      if (this.isSlow(share) !== (lane === 'slow')) continue;
      if (lane === 'slow') {
        if (workers.slow > 1 && share.executing >= workers.slow - 1) continue;
      } else if (share.runs === 0) {
        // Probation: one run of the tool at a time, and never the whole fast lane.
        if (share.executing > 0 || this.onProbation() >= Math.max(1, workers.fast - 1)) continue;
      } else {
        return this.collectFast(i);
      }
      this.waiting.splice(i, 1);
      share.executing++;
      return [first];
    }
    return null;
  }

  /** Runs in flight of tools that have not finished a run yet. */
  private onProbation(): number {
    let n = 0;
    for (const share of this.tools.values()) if (share.runs === 0) n += share.executing;
    return n;
  }

  /** From index `start` (a fast run), the fast runs that fit in one batch, slow ones left in place. */
  private collectFast(start: number): PendingRun[] {
    const batch: PendingRun[] = [];
    let ms = 0;
    let bytes = 0;
    let i = start;
    while (i < this.waiting.length && batch.length < this.limits.maxItems) {
      const run = this.waiting[i]!;
      const share = this.share(run.toolId);
      if (this.isSlow(share) || share.runs === 0) {
        i++;
        continue;
      }
      if (
        batch.length > 0 &&
        (ms + share.meanMs > this.limits.maxBatchMs || bytes + run.bytes > this.limits.maxBatchBytes)
      ) {
        break;
      }
      this.waiting.splice(i, 1);
      share.executing++;
      ms += share.meanMs;
      bytes += run.bytes;
      batch.push(run);
    }
    return batch;
  }

  /**
   * A run of `toolId` ended on a worker after `durationMs`. A worker's first successful
   * run of a tool is left out of the mean (`warmingUp`): it may include the tool's lazy
   * set-up, which would brand a fast tool slow after every boot. Overdue runs always count.
   */
  done(toolId: string, durationMs: number, warmingUp = false): void {
    const share = this.share(toolId);
    share.executing--;
    share.runs++;
    if (!warmingUp) share.meanMs = share.meanMs * 0.8 + durationMs * 0.2;
  }

  /** A run of `toolId` left its worker without running (taken back, or its batch failed). */
  returned(toolId: string): void {
    this.share(toolId).executing--;
  }

  /** Removes and returns the waiting runs that waited longer than `queueWaitMs`. */
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

  /** Runs waiting for a worker (the queue depth). */
  get queued(): number {
    return this.waiting.length;
  }

  private isSlow(share: ToolShare): boolean {
    return share.meanMs > this.limits.slowMs;
  }

  private share(toolId: string): ToolShare {
    let s = this.tools.get(toolId);
    if (!s) {
      s = { executing: 0, runs: 0, meanMs: this.limits.slowMs };
      this.tools.set(toolId, s);
    }
    return s;
  }
}
