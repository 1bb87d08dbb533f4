import type { ToolInput } from '../shared/tool-def.js';
import type { RunOutcome } from './outcome.js';

/** The main lane runs well-behaved tools; the slow lane runs tools whose recent runs are slow. */
export type LaneKind = 'main' | 'slow';

/** One run for the pool: the tool's mode and named input, and its policy's bounds. */
export interface PoolRun {
  toolId: string;
  mode: string;
  input: ToolInput;
  timeoutMs: number;
  /** UTF-8 bytes of the input (batches are kept small). */
  bytes: number;
}

/** A run waiting for a worker, or travelling in a batch, until its outcome is known. */
export interface PendingRun {
  toolId: string;
  mode: string;
  input: ToolInput;
  cell: number;
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
  /** Times it went back to the queue because a batch it did not cause failed (bounded by PoolTuning.maxReturns). */
  returns: number;
  settle: (outcome: RunOutcome) => void;
}

/** How a run ended on a worker, for its tool's means. */
export interface RunEnd {
  /** Its worker's first run of the tool (it may include the tool's lazy set-up). */
  first: boolean;
  ok: boolean;
  /** When it was stopped past its deadline (ms since the epoch): its tool is known to run away from then. */
  overdueAt?: number;
}
