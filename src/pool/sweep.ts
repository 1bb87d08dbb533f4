import type { RunSlots } from '../shared/run-slots.js';
import type { PendingRun } from './batcher.js';
import type { InFlightBatch } from './lane.js';

export interface SweepTimes {
  now: number;
  /** A run holding its worker longer than this lets the runs queued behind it go elsewhere. */
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
 * Checks one batch: its running run's deadline (which starts when the worker starts that
 * run, not when it was queued, so good runs never time out behind bad ones), and whether
 * the runs queued behind it should go to another worker.
 */
export function sweepBatch(slots: RunSlots, batch: InFlightBatch, t: SweepTimes): SweepFindings {
  const findings: SweepFindings = { overdue: null, takenBack: [], running: null, ranMs: 0 };
  let stuck = false;
  for (const run of batch.items) {
    const phase = slots.phase(run.slot, batch.id);
    if (phase === 'running') {
      const started = slots.startedAt(run.slot);
      if (started === 0) break; // claimed this instant; its start time lands next
      const ran = t.now - started;
      if (ran > run.timeoutMs) findings.overdue = run;
      findings.running = run;
      findings.ranMs = ran;
      stuck = ran > t.takeBackAfterMs;
    } else if (phase === 'assigned' && stuck && slots.takeBack(run.slot, batch.id)) {
      findings.takenBack.push(run);
    }
  }
  return findings;
}
