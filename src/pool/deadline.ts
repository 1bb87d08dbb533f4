import type { PendingRun } from './pending-run.js';
import type { PoolTuning } from './tuning.js';

/** What the deadline check knows of a run past its `timeoutMs` of wall time. */
export interface OverdueRun {
  run: Pick<PendingRun, 'timeoutMs' | 'lowered'>;
  /** Wall time since its worker started it. */
  ranMs: number;
  /** When its worker started it (ms since the epoch). */
  startedAt: number;
  /** Its thread's CPU time now (ms; null: unknown), read only for a lowered run. */
  cpuNowMs: () => number | null;
}

/**
 * Whether a run past its `timeoutMs` of wall time is stopped. A run whose priority the
 * pool lowered is charged the CPU time it got since (`chargedMs`), not the time it waited
 * for a CPU at low priority: on a busy machine a legitimate run would otherwise be starved
 * past its deadline by the pool itself. Wall time still bounds it, at
 * `loweredDeadlineFactor` times its timeoutMs. A run whose CPU time cannot be read is
 * stopped, as one that was never lowered.
 */
export function pastDeadline(o: OverdueRun, t: Pick<PoolTuning, 'loweredDeadlineFactor'>): boolean {
  const { lowered, timeoutMs } = o.run;
  if (!lowered || lowered.cpuMs === null) return true;
  if (o.ranMs > timeoutMs * t.loweredDeadlineFactor) return true;
  const cpuNow = o.cpuNowMs();
  if (cpuNow === null) return true;
  return chargedMs(o.startedAt, lowered.at, lowered.cpuMs, cpuNow) > timeoutMs;
}

/**
 * A lowered run's charge: the wall time from its start until it was lowered, then the CPU
 * time its thread got since (from `cpuThenMs` at the lowering to `cpuNowMs`).
 */
export function chargedMs(startedAt: number, loweredAt: number, cpuThenMs: number, cpuNowMs: number): number {
  return loweredAt - startedAt + (cpuNowMs - cpuThenMs);
}
