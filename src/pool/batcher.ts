import type { ToolInput } from '../shared/tool-def.js';
import type { RunOutcome } from './outcome.js';

/** The main lane runs well-behaved tools; the slow lane runs tools whose recent runs are slow. */
export type LaneKind = 'main' | 'slow';

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
  /** It ran long enough to be held: it no longer counts against the active workers. */
  held: boolean;
  /** When its thread's priority was lowered: wall time (ms since the epoch) and the thread's CPU time then (ms; null: unknown). */
  lowered: { at: number; cpuMs: number | null } | null;
  /** Times it went back to the queue because a batch it did not cause failed (bounded by the pool). */
  returns: number;
  settle: (outcome: RunOutcome) => void;
}

export interface BatchLimits {
  /** The mean a tool starts with before its first run ends: above `maxBatchMs`, so it travels alone. */
  newToolMeanMs: number;
  /** A tool whose recent runs average more than this is slow: its runs go to the slow lane. */
  slowMs: number;
  maxItems: number;
  /** Sum of the tools' mean run times in one batch: how long the last run may wait behind the rest. */
  maxBatchMs: number;
  maxBatchBytes: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  newToolMeanMs: 50,
  slowMs: 50,
  maxItems: 32,
  maxBatchMs: 5,
  maxBatchBytes: 256 * 1024,
};

interface ToolShare {
  /** Runs of the tool on workers now, held ones included. */
  executing: number;
  /** Of those, runs held (running past the pool's hold threshold). */
  held: number;
  /** Exponentially weighted mean run time; a new tool starts at `newToolMeanMs`. */
  meanMs: number;
  /** Mean time of successful runs, and of successful first runs on a worker (lazy set-up); null: none yet. */
  okMs: number | null;
  firstOkMs: number | null;
  /** When a run of the tool last passed its deadline (0: never). */
  overdueAt: number;
}

/** How a run ended, for the means. */
export interface RunEnd {
  /** Its worker's first run of the tool (it may include the tool's lazy set-up). */
  first: boolean;
  ok: boolean;
  /** It passed its deadline (TIMEOUT). */
  overdue?: boolean;
}

/**
 * Decides which waiting runs go to the next free worker, and together. Hand-written:
 * Piscina has one FIFO queue, no task classes and no batching.
 *
 * - Runs of *fast* tools (recent mean under `maxBatchMs`) waiting at the same moment travel
 *   as one batch, in arrival order: one thread crossing instead of one per run. Other runs
 *   travel alone. A new tool starts with a mean of `newToolMeanMs`, so it travels alone
 *   until its runs show it fast.
 * - A *slow* tool (recent mean over `slowMs`: catastrophic inputs timing out, or heavy
 *   work) runs on the slow lane, so that its runaways never terminate the main lane's
 *   workers and the warm state they hold (a tokenizer's tables). So does a tool that has
 *   not run successfully yet (after a boot, every tool): nothing proves it safe. Its first
 *   success moves it to the main lane; an overdue run moves it back, and fast runs return it.
 * - In each lane, held runs (past the pool's hold threshold) leave the active workers, so
 *   good runs keep flowing beside runaways, of other tools and of the same tool. Once a
 *   lane has no room left for held runs, a tool with a held run may use at most
 *   `max(1, active - 1)` of its active workers, so it never takes them all.
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

  /**
   * The next batch for a free worker of `lane` (oldest eligible run first), or null.
   * `active`: the lane's active workers; `full`: the lane has no room left for held runs.
   */
  take(lane: LaneKind, active: number, full = false): PendingRun[] | null {
    for (let i = 0; i < this.waiting.length; i++) {
      const first = this.waiting[i]!;
      const share = this.share(first.toolId);
      if (this.laneOf(share) !== lane || !this.eligible(share, active, full)) continue;
      if (share.meanMs <= this.limits.maxBatchMs) return this.collect(i, active, full);
      this.waiting.splice(i, 1);
      share.executing++;
      return [first];
    }
    return null;
  }

  /** Slow: recent runs are slow, or the tool has never run successfully (nothing proves it safe). */
  private laneOf(share: ToolShare): LaneKind {
    const proven = share.okMs !== null || share.firstOkMs !== null;
    return proven && share.meanMs <= this.limits.slowMs ? 'main' : 'slow';
  }

  private eligible(share: ToolShare, active: number, full: boolean): boolean {
    return !full || share.held === 0 || share.executing - share.held < Math.max(1, active - 1);
  }

  /** From index `start`, the eligible runs of fast tools that fit in one batch; others left in place. */
  private collect(start: number, active: number, full: boolean): PendingRun[] {
    const batch: PendingRun[] = [];
    let ms = 0;
    let bytes = 0;
    let i = start;
    while (i < this.waiting.length && batch.length < this.limits.maxItems) {
      const run = this.waiting[i]!;
      const share = this.share(run.toolId);
      if (share.meanMs > this.limits.maxBatchMs || !this.eligible(share, active, full)) {
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

  /** A running run passed the hold threshold. */
  hold(run: PendingRun): void {
    if (run.held) return;
    run.held = true;
    this.share(run.toolId).held++;
  }

  /**
   * A run ended on a worker after `durationMs`. A worker's first successful run of a tool
   * is left out of the batching mean: it may include the tool's lazy set-up, which would
   * brand a fast tool slow after every boot. Overdue and failed runs always count there.
   */
  done(run: PendingRun, durationMs: number, end: RunEnd = { first: false, ok: false }): void {
    this.leave(run);
    const share = this.share(run.toolId);
    if (!(end.first && end.ok)) share.meanMs = share.meanMs * 0.8 + durationMs * 0.2;
    if (end.overdue) share.overdueAt = Date.now();
    if (!end.ok) return;
    if (end.first) share.firstOkMs = ewma(share.firstOkMs, durationMs);
    else share.okMs = ewma(share.okMs, durationMs);
  }

  /** True when a run of `toolId` passed its deadline within the last `withinMs`. */
  runsAway(toolId: string, withinMs: number, now = Date.now()): boolean {
    const { overdueAt } = this.share(toolId);
    return overdueAt > 0 && now - overdueAt < withinMs;
  }

  /** How long successful runs of `toolId` usually take (first runs on a worker apart); null: not known yet. */
  usualMs(toolId: string, first: boolean): number | null {
    const share = this.share(toolId);
    return first ? share.firstOkMs : share.okMs;
  }

  /** A run left its worker without running (taken back, or its batch failed). */
  returned(run: PendingRun): void {
    this.leave(run);
  }

  private leave(run: PendingRun): void {
    const share = this.share(run.toolId);
    share.executing--;
    if (run.held) {
      share.held--;
      run.held = false;
    }
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

  /** Removes and returns every waiting run (the pool is closing). */
  drain(): PendingRun[] {
    return this.waiting.splice(0);
  }

  /** Runs waiting for a worker (the queue depth). */
  get queued(): number {
    return this.waiting.length;
  }

  private share(toolId: string): ToolShare {
    let s = this.tools.get(toolId);
    if (!s) {
      s = {
        executing: 0,
        held: 0,
        meanMs: this.limits.newToolMeanMs,
        okMs: null,
        firstOkMs: null,
        overdueAt: 0,
      };
      this.tools.set(toolId, s);
    }
    return s;
  }
}

function ewma(mean: number | null, value: number): number {
  return mean === null ? value : mean * 0.8 + value * 0.2;
}
