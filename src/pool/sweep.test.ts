import { describe, expect, it } from 'vitest';
import { cellMemory, RunCells } from '../shared/run-cells.js';
import type { WorkerBatch } from './lane.js';
import { sweepBatch } from './sweep.js';
import { pendingRun as pending, Rig } from './test-helpers.js';
import { POOL_TUNING } from './tuning.js';

const T = POOL_TUNING;

describe('sweepBatch', () => {
  it('takes back the runs queued behind a long run, and flags it overdue at its deadline', () => {
    const memory = cellMemory(8);
    const cells = new RunCells(memory);
    const items = [pending('fast'), pending('fast'), pending('fast')].map((r, i) => ({ ...r, cell: i }));
    const lane = {} as WorkerBatch['lane']; // not used by the sweep
    const batch: WorkerBatch = { id: 7, lane, items, overdue: null, held: null };
    for (const r of items) cells.assign(r.cell, batch.id);
    // The worker claims the first run (as workers/tool-worker.ts does).
    expect(cells.claim(0, 7, 1234, false)).toBe(true);
    expect(cells.threadOf(0)).toBe(1234);
    const started = new BigInt64Array(memory.startedAt);
    const now = 1_000_000;
    const times = { now, takeBackAfterMs: 20 };
    started[0] = BigInt(now - 5);
    expect(sweepBatch(cells, batch, times)).toEqual({
      overdue: null,
      takenBack: [],
      running: items[0],
      ranMs: 5,
    });

    started[0] = BigInt(now - 50);
    const found = sweepBatch(cells, batch, times);
    expect(found.takenBack).toEqual([items[1], items[2]]);
    expect(cells.phase(1, 7)).toBeNull();
    expect(cells.claim(1, 7, 1234, false)).toBe(false); // the worker's claim of it now fails

    started[0] = BigInt(now - 500);
    expect(sweepBatch(cells, batch, times)).toMatchObject({ overdue: null, running: items[0], ranMs: 500 });
    started[0] = BigInt(now - 1500);
    expect(sweepBatch(cells, batch, times).overdue).toBe(items[0]);
    expect(cells.lower(0)).toBe(true);
    expect(cells.lower(0)).toBe(false); // once
    expect(cells.finish(0, 7)).toBe(true);
    // A worker's first run of a tool says so.
    cells.assign(2, 8);
    expect(cells.claim(2, 8, 1234, true)).toBe(true);
    expect(cells.firstRun(2)).toBe(true);
    expect(cells.finish(2, 8)).toBe(false);
  });
});

describe('take-back', () => {
  it(`sends the runs behind a run past takeBackAfterMs (${T.takeBackAfterMs}) to the next free worker, in order`, () => {
    const rig = new Rig();
    rig.train('fast', 0.1);
    const tickets = [rig.submit('fast'), rig.submit('fast'), rig.submit('fast')];
    const [batch] = rig.dispatch();
    expect(batch!.items).toHaveLength(3);
    rig.start(batch!);
    rig.advance(T.takeBackAfterMs);
    expect(rig.workers.sent.at(-1)).toBe(batch); // nothing taken back yet
    rig.advance(1);
    const [, second, third] = batch!.items;
    const next = rig.workers.sent.at(-1)!;
    expect(next).not.toBe(batch);
    expect(next.items).toEqual([second, third]);
    // The slow run's answer carries only its own result; the others settle with their new batch.
    rig.answer(batch!, 21);
    expect(tickets.map((t) => t.outcome?.ok)).toEqual([true, undefined, undefined]);
    rig.start(next);
    rig.answer(next, 0.1);
    expect(tickets.map((t) => t.outcome?.ok)).toEqual([true, true, true]);
  });

  it('counts the queue wait of a run taken back from its return', () => {
    // One active worker, and the long run never held: the run taken back waits in the queue.
    const rig = new Rig({ threads: 1, queueWaitMs: 100 }, { holdAfterMs: 10_000 });
    rig.train('fast', 0.1);
    const tickets = [rig.submit('fast'), rig.submit('fast')];
    rig.now += 90;
    const [batch] = rig.dispatch();
    rig.start(batch!);
    rig.advance(T.takeBackAfterMs + 1); // back in the queue 111 ms after its enqueue
    expect(rig.scheduler.batcher.queued).toBe(1);
    expect(tickets[1]!.outcome).toBeUndefined();
    rig.advance(100);
    expect(tickets[1]!.outcome).toBeUndefined();
    rig.advance(1);
    expect(tickets[1]!.outcome).toMatchObject({ ok: false, code: 'CONCURRENCY_LIMIT', status: 503 });
  });
});

describe('queue-wait expiry', () => {
  it('refuses a run no worker took within queueWaitMs, with the busy refusal', () => {
    const rig = new Rig({ threads: 1, queueWaitMs: 500 }); // slow lane: 1 active worker
    rig.submit('new');
    const waiting = rig.submit('new');
    expect(rig.dispatch()).toHaveLength(1); // the first is sent, never started: not held
    rig.advance(500);
    expect(waiting.outcome).toBeUndefined();
    rig.advance(1);
    expect(waiting.outcome).toEqual({
      ok: false,
      code: 'CONCURRENCY_LIMIT',
      message: 'no worker was free within 500 ms; the instance is busy',
      status: 503,
      durationMs: 0,
      queuedMs: 501,
    });
    expect(rig.scheduler.inUse).toBe(1);
  });

  it('starts a run a held batch just made room for before expiring it', () => {
    const rig = new Rig({ threads: 1, queueWaitMs: 200 });
    rig.submit('new');
    const waiting = rig.submit('new');
    const [first] = rig.dispatch();
    rig.start(first!, 0, { first: true });
    rig.advance(T.firstRunMs + 1); // held now, and the second has waited past 200 ms
    expect(rig.scheduler.held).toBe(1);
    expect(waiting.outcome).toBeUndefined();
    expect(rig.workers.sent).toHaveLength(2);
  });
});
