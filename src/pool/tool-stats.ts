import type { LaneKind, PendingRun, RunEnd } from './pending-run.js';
import { POOL_TUNING, type PoolTuning } from './tuning.js';

export type StatsTuning = Pick<PoolTuning, 'newToolMeanMs' | 'slowMs' | 'maxBatchMs' | 'meanWeight'>;

/** What the pool has learnt about one tool's runs. */
export interface ToolShare {
  /** Runs of the tool on workers now, held ones included. */
  executing: number;
  /** Of those, runs held (running past the hold threshold). */
  held: number;
  /** Exponentially weighted mean run time; a new tool starts at `newToolMeanMs`. */
  meanMs: number;
  /** Mean time of successful runs, and of successful first runs on a worker (lazy set-up); null: none yet. */
  okMs: number | null;
  firstOkMs: number | null;
  /** When a run of the tool last passed its deadline (0: never). */
  overdueAt: number;
}

/**
 * Per tool: how its runs went, and what follows from it: its lane, whether its runs batch,
 * and its share of a lane's active workers while it has held runs.
 */
export class ToolStats {
  private readonly tools = new Map<string, ToolShare>();

  constructor(private readonly tuning: StatsTuning = POOL_TUNING) {}

  /**
   * Slow lane: recent runs are slow, or the tool has never run successfully (after a boot,
   * every tool: nothing proves it safe). Its first success moves it to the main lane; an
   * overdue run moves it back, and fast runs return it.
   */
  laneOf(share: ToolShare): LaneKind {
    const proven = share.okMs !== null || share.firstOkMs !== null;
    return proven && share.meanMs <= this.tuning.slowMs ? 'main' : 'slow';
  }

  /** Its runs travel in batches: its recent mean is at most `maxBatchMs`. */
  batches(share: ToolShare): boolean {
    return share.meanMs <= this.tuning.maxBatchMs;
  }

  /**
   * Fairness: once a lane has no room left for held runs (`full`), a tool with a held run
   * may use at most `max(1, active - 1)` of its `active` workers, so it never takes them all.
   */
  eligible(share: ToolShare, active: number, full: boolean): boolean {
    return !full || share.held === 0 || share.executing - share.held < Math.max(1, active - 1);
  }

  /** A run of the tool left for a worker. */
  started(share: ToolShare): void {
    share.executing++;
  }

  /** A running run passed the hold threshold. */
  hold(run: PendingRun): void {
    if (run.held) return;
    run.held = true;
    this.of(run.toolId).held++;
  }

  /**
   * A run ended on a worker after `durationMs`. A worker's first successful run of a tool
   * is left out of the batching mean: it may include the tool's lazy set-up, which would
   * brand a fast tool slow after every boot. Overdue and failed runs always count there.
   */
  done(run: PendingRun, durationMs: number, end: RunEnd = { first: false, ok: false }): void {
    this.returned(run);
    const share = this.of(run.toolId);
    const w = this.tuning.meanWeight;
    if (!(end.first && end.ok)) share.meanMs = share.meanMs * (1 - w) + durationMs * w;
    if (end.overdueAt !== undefined) share.overdueAt = end.overdueAt;
    if (!end.ok) return;
    if (end.first) share.firstOkMs = this.mean(share.firstOkMs, durationMs);
    else share.okMs = this.mean(share.okMs, durationMs);
  }

  /** A run left its worker without running (taken back, or its batch failed). */
  returned(run: PendingRun): void {
    const share = this.of(run.toolId);
    share.executing--;
    if (run.held) {
      share.held--;
      run.held = false;
    }
  }

  /** True when a run of `toolId` passed its deadline within `withinMs` before `now`. */
  runsAway(toolId: string, withinMs: number, now: number): boolean {
    const { overdueAt } = this.of(toolId);
    return overdueAt > 0 && now - overdueAt < withinMs;
  }

  /** How long successful runs of `toolId` usually take (first runs on a worker apart); null: not known yet. */
  usualMs(toolId: string, first: boolean): number | null {
    const share = this.of(toolId);
    return first ? share.firstOkMs : share.okMs;
  }

  of(toolId: string): ToolShare {
    let s = this.tools.get(toolId);
    if (!s) {
      s = {
        executing: 0,
        held: 0,
        meanMs: this.tuning.newToolMeanMs,
        okMs: null,
        firstOkMs: null,
        overdueAt: 0,
      };
      this.tools.set(toolId, s);
    }
    return s;
  }

  private mean(mean: number | null, value: number): number {
    const w = this.tuning.meanWeight;
    return mean === null ? value : mean * (1 - w) + value * w;
  }
}
