import type { Phase } from '../shared/run-cells.js';
import type { WorkerBatch } from './lane.js';
import { stoppedByClose } from './outcome.js';
import type { PendingRun } from './pending-run.js';
import type { PoolTuning } from './tuning.js';

/**
 * What becomes of each run of a batch whose worker ended without answering:
 * - `failed`: the culprit (the overdue run, or the one running when the worker ended)
 *   gets the failure;
 * - `again`: a run that did nothing wrong runs again (tools are pure functions: a result
 *   lost with the worker is simply computed again), at the front of the queue;
 * - `given-up`: one that went back `maxReturns` times already is settled with the failure;
 * - `shutdown`: while closing, the others get the shutdown refusal.
 */
export type Fate = 'failed' | 'again' | 'given-up' | 'shutdown';

/**
 * Sorts the runs still in a batch whose worker was terminated (a deadline), ran out of
 * memory or crashed, in order; runs taken back earlier are queued already and left out.
 * Counts each return on the run: without a bound, a run whose batches keep failing before
 * it starts was sent forever. A worker the closing pool stopped has no culprit.
 */
export function planFailedBatch(
  batch: WorkerBatch,
  phaseOf: (run: PendingRun) => Phase,
  closing: boolean,
  err: unknown,
  t: Pick<PoolTuning, 'maxReturns'>,
): { run: PendingRun; fate: Fate }[] {
  const stopped = closing && !batch.overdue && stoppedByClose(err);
  const culprit = stopped ? null : (batch.overdue ?? batch.items.find((run) => phaseOf(run) === 'running'));
  const plan: { run: PendingRun; fate: Fate }[] = [];
  for (const run of batch.items) {
    if (phaseOf(run) === null) continue;
    let fate: Fate = 'shutdown';
    if (run === culprit) fate = 'failed';
    else if (!closing) fate = ++run.returns > t.maxReturns ? 'given-up' : 'again';
    plan.push({ run, fate });
  }
  return plan;
}
