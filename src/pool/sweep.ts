import type { RunCells } from '../shared/run-cells.js';
import { pastDeadline } from './deadline.js';
import { holdAfter, shouldLower, type Usual } from './held-runs.js';
import type { WorkerBatch } from './lane.js';
import type { PendingRun } from './pending-run.js';
import type { ToolStats } from './tool-stats.js';
import type { PoolTuning } from './tuning.js';
import type { WorkerPort } from './worker-port.js';

export interface SweepTimes {
  now: number;
  /** PoolTuning.takeBackAfterMs: a run holding its worker longer lets the runs queued behind it go elsewhere. */
  takeBackAfterMs: number;
}

export interface SweepFindings {
  /** The running run past its `timeoutMs`, if any. */
  overdue: PendingRun | null;
  /** Runs taken back because the run before them has held the worker too long. */
  takenBack: PendingRun[];
  /** The run on the worker now, and for how long it has run. */
  running: PendingRun | null;
  ranMs: number;
}

/**
 * Checks one batch at `t.now`: its running run's deadline (which starts when the worker
 * starts that run, not when it was queued, so good runs never time out behind bad ones),
 * and whether the runs queued behind it should go to another worker (taken back in the
 * run cells: a compare-and-swap against the worker's claim).
 */
export function sweepBatch(cells: RunCells, batch: WorkerBatch, t: SweepTimes): SweepFindings {
  const findings: SweepFindings = { overdue: null, takenBack: [], running: null, ranMs: 0 };
  let stuck = false;
  for (const run of batch.items) {
    const phase = cells.phase(run.cell, batch.id);
    if (phase === 'running') {
      const started = cells.startedAt(run.cell);
      if (started === 0) break; // claimed this instant; its start time lands next
      const ran = t.now - started;
      if (ran > run.timeoutMs) findings.overdue = run;
      findings.running = run;
      findings.ranMs = ran;
      stuck = ran > t.takeBackAfterMs;
    } else if (phase === 'assigned' && stuck && cells.takeBack(run.cell, batch.id)) {
      findings.takenBack.push(run);
    }
  }
  return findings;
}

/** What watching a batch reads and asks of. */
export interface WatchParts {
  cells: RunCells;
  tools: ToolStats;
  port: WorkerPort;
  tuning: PoolTuning;
}

/**
 * One batch at one sweep (`now`): its running run is held past its hold threshold (while
 * its lane has room for it), its thread lowered once its tool is known to run away, and
 * its worker aborted past its deadline; a batch whose held run ended is active again.
 * Returns the runs taken back, for the queue.
 */
export function watchBatch(p: WatchParts, batch: WorkerBatch, now: number): PendingRun[] {
  const t = p.tuning;
  const { overdue, takenBack, running, ranMs } = sweepBatch(p.cells, batch, {
    now,
    takeBackAfterMs: t.takeBackAfterMs,
  });
  const usual = running && usualOf(p, running);
  if (running && usual && ranMs > holdAfter(usual, t)) {
    if (batch.held !== running && batch.lane.hold(batch, running)) p.tools.hold(running);
    const runsAway = p.tools.runsAway(running.toolId, t.runsAwayMs, now);
    if (batch.held === running && shouldLower(usual, ranMs, runsAway, t)) lower(p, running, now);
  } else {
    batch.lane.release(batch);
  }
  if (overdue) {
    // A start time not stamped yet reads as now.
    const startedAt = p.cells.startedAt(overdue.cell) || now;
    const cpuNowMs = () => p.port.cpuMs(p.cells.threadOf(overdue.cell));
    if (pastDeadline({ run: overdue, ranMs, startedAt, cpuNowMs }, t)) {
      batch.overdue = overdue;
      p.port.abort(batch);
    }
  }
  return takenBack;
}

/** What successful runs like `run` usually take (first runs on a worker apart). */
function usualOf(p: WatchParts, run: PendingRun): Usual {
  const first = p.cells.firstRun(run.cell);
  return { first, ms: p.tools.usualMs(run.toolId, first) };
}

/** Lowers the run's thread priority, once; from then on it is charged its CPU time (src/pool/deadline.ts). */
function lower(p: WatchParts, run: PendingRun, now: number): void {
  const tid = p.cells.threadOf(run.cell);
  if (tid > 0 && p.cells.lower(run.cell) && p.port.lower(tid)) {
    run.lowered = { at: now, cpuMs: p.port.cpuMs(tid) };
  }
}
