import type { PoolTuning } from './tuning.js';

export type HoldTuning = Pick<
  PoolTuning,
  'holdAfterMs' | 'firstRunMs' | 'firstRunFactor' | 'lowerFactor' | 'lowerAfterMs'
>;

/** What the pool knows of how long runs like the running one take. */
export interface Usual {
  /** It is its worker's first run of the tool (it may include the tool's lazy set-up). */
  first: boolean;
  /** What successful runs like it usually take (first runs compared with first runs); null: not known yet. */
  ms: number | null;
}

/**
 * How long a run may hold its worker before it is held (stops counting as active):
 * `holdAfterMs`; for a worker's first run of a tool, `firstRunMs` until a first run of the
 * tool has succeeded, then `firstRunFactor` times what first runs take (at least
 * `holdAfterMs`), so that a tool's lazy set-up is not sent from worker to worker.
 */
export function holdAfter(usual: Usual, t: HoldTuning): number {
  if (!usual.first) return t.holdAfterMs;
  return usual.ms === null ? t.firstRunMs : Math.max(t.holdAfterMs, t.firstRunFactor * usual.ms);
}

/**
 * How long a held run may go before its thread's priority is lowered: past its hold, past
 * `lowerAfterMs`, and past `lowerFactor` times what the tool's successful runs usually take.
 */
export function lowerAfter(usual: Usual, t: HoldTuning): number {
  return Math.max(holdAfter(usual, t), t.lowerAfterMs, t.lowerFactor * (usual.ms ?? 0));
}

/**
 * A held run's thread is lowered only when its tool is known to run away (`runsAway`: a
 * run of it passed its deadline lately) and it ran past lowerAfter. Lowering a legitimate
 * run starves it on a loaded machine; lowering a runaway costs nothing.
 */
export function shouldLower(usual: Usual, ranMs: number, runsAway: boolean, t: HoldTuning): boolean {
  return runsAway && ranMs > lowerAfter(usual, t);
}
