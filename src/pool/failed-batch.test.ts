import { describe, expect, it } from 'vitest';
import type { Phase } from '../shared/run-cells.js';
import { planFailedBatch } from './failed-batch.js';
import type { WorkerBatch } from './lane.js';
import type { PendingRun } from './pending-run.js';
import { pendingRun, Rig } from './test-helpers.js';
import { POOL_TUNING } from './tuning.js';

const T = POOL_TUNING;
const OOM = Object.assign(new Error('worker out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });

function batchOf(phases: Phase[], overdue?: number) {
  const items = phases.map(() => pendingRun('t'));
  const lane = {} as WorkerBatch['lane'];
  const batch: WorkerBatch = { id: 1, lane, items, overdue: null, held: null };
  if (overdue !== undefined) batch.overdue = items[overdue]!;
  const phaseOf = (run: PendingRun) => phases[items.indexOf(run)]!;
  return { batch, items, phaseOf };
}

describe('planFailedBatch', () => {
  it('fails the running run; runs the others again; leaves out runs taken back', () => {
    const { batch, items, phaseOf } = batchOf(['done', 'running', 'assigned', null]);
    expect(planFailedBatch(batch, phaseOf, false, OOM, T)).toEqual([
      { run: items[0], fate: 'again' },
      { run: items[1], fate: 'failed' },
      { run: items[2], fate: 'again' },
    ]);
    expect(items.map((run) => run.returns)).toEqual([1, 0, 1, 0]);
  });

  it('blames the overdue run, even when a batch-mate was claimed after it', () => {
    const { batch, items, phaseOf } = batchOf(['running', 'running'], 0);
    expect(planFailedBatch(batch, phaseOf, false, OOM, T).map((p) => p.fate)).toEqual(['failed', 'again']);
    expect(items[1]!.returns).toBe(1);
  });

  it(`gives up on a run that went back maxReturns (${T.maxReturns}) times already`, () => {
    const { batch, items, phaseOf } = batchOf(['assigned', 'assigned']);
    items[0]!.returns = T.maxReturns;
    items[1]!.returns = T.maxReturns - 1;
    expect(planFailedBatch(batch, phaseOf, false, OOM, T).map((p) => p.fate)).toEqual(['given-up', 'again']);
    expect(planFailedBatch(batch, phaseOf, false, OOM, { maxReturns: 10 }).map((p) => p.fate)).toEqual([
      'again',
      'again',
    ]);
  });

  it('while closing, refuses the others; a worker the closing pool stopped has no culprit', () => {
    const { batch, phaseOf } = batchOf(['running', 'assigned']);
    expect(planFailedBatch(batch, phaseOf, true, OOM, T).map((p) => p.fate)).toEqual(['failed', 'shutdown']);
    const stopped = new Error('Terminating worker thread');
    expect(planFailedBatch(batch, phaseOf, true, stopped, T).map((p) => p.fate)).toEqual([
      'shutdown',
      'shutdown',
    ]);
  });
});

describe('a run whose batches keep failing before it starts', () => {
  it.each([T.maxReturns, 1])(
    'is sent again at most maxReturns (%i) times, then fails like the failure',
    (max) => {
      const rig = new Rig({}, { maxReturns: max });
      const ticket = rig.submit('loads-badly');
      rig.dispatch();
      for (let sent = 1; sent <= max + 1; sent++) {
        expect(rig.workers.sent).toHaveLength(sent); // sent again after each failure
        expect(ticket.outcome).toBeUndefined();
        rig.fail(rig.workers.sent.at(-1)!, OOM); // never claimed: no culprit
      }
      expect(ticket.outcome).toMatchObject({
        ok: false,
        code: 'BUDGET_EXCEEDED',
        message: "the run exceeded its memory cap of 128 MB (its worker's heap) and was stopped",
        reason: 'memory',
        detail: expect.stringContaining(`in ${max + 1} tries`),
      });
      expect(rig.workers.sent).toHaveLength(max + 1);
      expect(rig.scheduler.inUse).toBe(0);
    },
  );
});
