import { ASSIGNED, DONE, RUNNING, type SharedSlots, tag } from '../shared/slot-state.js';
import type { PendingRun } from './batcher.js';
import type { Lane } from './lane.js';

/** A batch on a worker. */
export interface InFlightBatch {
  id: number;
  lane: Lane;
  items: PendingRun[];
  controller: AbortController;
  /** The run that passed its deadline: the batch was aborted (its worker terminated) for it. */
  overdue: PendingRun | null;
}

export type Phase = 'assigned' | 'running' | 'done' | null;

/** The API thread's view of the slots it shares with the workers (src/shared/slot-state.ts). */
export class SlotBoard {
  private readonly state: Int32Array;
  private readonly started: BigInt64Array;

  constructor(slots: SharedSlots) {
    this.state = new Int32Array(slots.state);
    this.started = new BigInt64Array(slots.startedAt);
  }

  assign(slot: number, batch: number): void {
    Atomics.store(this.started, slot, 0n);
    Atomics.store(this.state, slot, tag(batch, ASSIGNED));
  }

  /** Takes a run back from its batch if the worker has not started it. */
  takeBack(slot: number, batch: number): boolean {
    return Atomics.compareExchange(this.state, slot, tag(batch, ASSIGNED), 0) === tag(batch, ASSIGNED);
  }

  clear(slot: number): void {
    Atomics.store(this.state, slot, 0);
  }

  phase(slot: number, batch: number): Phase {
    const value = Atomics.load(this.state, slot);
    if (value === tag(batch, RUNNING)) return 'running';
    if (value === tag(batch, DONE)) return 'done';
    if (value === tag(batch, ASSIGNED)) return 'assigned';
    return null;
  }

  /** When the worker started the run in `slot` (ms since the epoch), or 0. */
  startedAt(slot: number): number {
    return Number(Atomics.load(this.started, slot));
  }
}

export interface SweepFindings {
  /** The running run past its `timeoutMs`, if any. */
  overdue: PendingRun | null;
  /** Runs taken back because the run before them has held the worker too long. */
  takenBack: PendingRun[];
}

/**
 * Checks one batch: its running run's deadline (which starts when the worker starts that
 * run, not when it was queued: PERFORMANCE.md), and whether the runs queued behind it
 * should go to another worker because it has run longer than `takeBackAfterMs`.
 */
export function sweepBatch(
  board: SlotBoard,
  batch: InFlightBatch,
  now: number,
  takeBackAfterMs: number,
): SweepFindings {
  const findings: SweepFindings = { overdue: null, takenBack: [] };
  let stuck = false;
  for (const run of batch.items) {
    const phase = board.phase(run.slot, batch.id);
    if (phase === 'running') {
      const started = board.startedAt(run.slot);
      if (started === 0) break; // claimed this instant; its start time lands next
      const ran = now - started;
      if (ran > run.timeoutMs) findings.overdue = run;
      stuck = ran > takeBackAfterMs;
    } else if (phase === 'assigned' && stuck && board.takeBack(run.slot, batch.id)) {
      findings.takenBack.push(run);
    }
  }
  return findings;
}
