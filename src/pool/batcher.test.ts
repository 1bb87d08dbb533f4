import { describe, expect, it } from 'vitest';
import { RUNNING, sharedSlots, tag } from '../shared/slot-state.js';
import { Batcher, type PendingRun } from './batcher.js';
import { type InFlightBatch, SlotBoard, sweepBatch } from './deadlines.js';

/** The default pool: 2 fast workers, 1 slow. */
const lanes = { fast: 2, slow: 1 };
let slot = 0;
const pending = (toolId: string, bytes = 10): PendingRun => ({
  toolId,
  mode: 'm',
  input: {},
  slot: slot++,
  timeoutMs: 1000,
  enqueuedAt: Date.now(),
  waitingSince: Date.now(),
  bytes,
  settle: () => {},
});

/** A batcher that has seen `fast` run quickly and `slow` run slowly. */
function trained(): Batcher {
  const b = new Batcher();
  // 60 runs bring the weighted mean from the 50 ms a new tool starts at down to ~0.1 ms.
  for (let i = 0; i < 60; i++) {
    for (const [tool, ms] of [
      ['fast', 0.1],
      ['slow', 900],
    ] as const) {
      b.enqueue(pending(tool));
      expect(b.take('fast', lanes) ?? b.take('slow', lanes)).toHaveLength(1);
      b.done(tool, ms);
    }
  }
  return b;
}

describe('Batcher', () => {
  it('sends fast runs that wait together as one batch, in arrival order', () => {
    const b = trained();
    const runs = [pending('fast'), pending('fast'), pending('fast')];
    for (const r of runs) b.enqueue(r);
    expect(b.take('slow', lanes)).toBeNull();
    expect(b.take('fast', lanes)).toEqual(runs);
    expect(b.take('fast', lanes)).toBeNull();
  });

  it('sends a slow run alone, to the slow lane, and leaves it out of fast batches', () => {
    const b = trained();
    const [f1, s1, s2, f2] = [pending('fast'), pending('slow'), pending('slow'), pending('fast')];
    for (const r of [f1, s1, s2, f2]) b.enqueue(r);
    expect(b.take('fast', lanes)).toEqual([f1, f2]);
    expect(b.take('slow', lanes)).toEqual([s1]);
    expect(b.take('slow', lanes)).toEqual([s2]);
  });

  it('puts a tool with no history on probation: fast lane, alone, slow after one slow run', () => {
    const b = new Batcher();
    for (let i = 0; i < 3; i++) b.enqueue(pending('new'));
    expect(b.take('slow', lanes)).toBeNull();
    expect(b.take('fast', lanes)).toHaveLength(1); // alone: its 50 ms mean fills a batch
    b.done('new', 1000);
    expect(b.take('fast', lanes)).toBeNull();
    expect(b.take('slow', lanes)).toHaveLength(1);
  });

  it('lets probation runs hold at most fast - 1 workers, known fast tools the rest', () => {
    const b = trained();
    const [n1, n2, f1] = [pending('new1'), pending('new2'), pending('fast')];
    for (const r of [n1, n2, f1]) b.enqueue(r);
    expect(b.take('fast', lanes)).toEqual([n1]);
    expect(b.take('fast', lanes)).toEqual([f1]); // new2 must wait: one probation run at a time here
    expect(b.take('fast', lanes)).toBeNull();
    b.done('new1', 1);
    expect(b.take('fast', lanes)).toEqual([n2]);
  });

  it("leaves a worker's first (warming-up) run out of the mean, but not an overdue one", () => {
    const b = new Batcher();
    b.enqueue(pending('cold'));
    expect(b.take('fast', lanes)).toHaveLength(1);
    b.done('cold', 400, true); // built its tables: still on probation
    b.enqueue(pending('cold'));
    expect(b.take('fast', lanes)).toHaveLength(1);
    b.done('cold', 400); // a slow run like any other
    b.enqueue(pending('cold'));
    expect(b.take('fast', lanes)).toBeNull();
  });

  it('lets one slow tool hold all but one worker of a larger slow lane', () => {
    const b = trained();
    for (let i = 0; i < 3; i++) {
      b.enqueue(pending('slow2'));
      expect(b.take('fast', lanes) ?? b.take('slow', lanes)).toHaveLength(1);
      b.done('slow2', 900);
    }
    const [s1, s2, t1] = [pending('slow'), pending('slow'), pending('slow2')];
    for (const r of [s1, s2, t1]) b.enqueue(r);
    expect(b.take('slow', { fast: 2, slow: 2 })).toEqual([s1]);
    // s2 may not take the last slow worker; the other slow tool behind it may.
    expect(b.take('slow', { fast: 2, slow: 2 })).toEqual([t1]);
    expect(b.take('slow', { fast: 2, slow: 2 })).toBeNull();
    b.done('slow', 900);
    expect(b.take('slow', { fast: 2, slow: 2 })).toEqual([s2]);
  });

  it('caps a batch by items and by bytes', () => {
    const b = trained();
    for (let i = 0; i < 40; i++) b.enqueue(pending('fast'));
    expect(b.take('fast', lanes)).toHaveLength(32);
    expect(b.take('fast', lanes)).toHaveLength(8);
    const big = [pending('fast', 200_000), pending('fast', 200_000)];
    for (const r of big) b.enqueue(r);
    expect(b.take('fast', lanes)).toEqual([big[0]]);
  });

  it('puts runs taken back at the front, with a fresh queue wait, and expires runs past the bound', () => {
    const b = trained();
    const long = Date.now() - 5000;
    const late = { ...pending('fast'), enqueuedAt: long, waitingSince: long };
    const back = { ...pending('fast'), enqueuedAt: long, waitingSince: long };
    b.enqueue(late);
    b.requeue([back]);
    expect(b.expire(Date.now(), 2000)).toEqual([late]);
    expect(b.take('fast', lanes)).toEqual([back]);
  });
});

describe('sweepBatch', () => {
  it('takes back the runs queued behind a run that holds its worker, and flags it overdue at its deadline', () => {
    const slots = sharedSlots(8);
    const board = new SlotBoard(slots);
    const items = [pending('fast'), pending('fast'), pending('fast')].map((r, i) => ({ ...r, slot: i }));
    const lane = {} as InFlightBatch['lane']; // not used by the sweep
    const batch: InFlightBatch = { id: 7, lane, items, controller: new AbortController(), overdue: null };
    for (const r of items) board.assign(r.slot, batch.id);
    // The worker claims the first run (as workers/tool-worker.ts does).
    new Int32Array(slots.state)[0] = tag(7, RUNNING);
    const now = Date.now();
    new BigInt64Array(slots.startedAt)[0] = BigInt(now - 5);
    expect(sweepBatch(board, batch, now, 20)).toEqual({ overdue: null, takenBack: [] });

    new BigInt64Array(slots.startedAt)[0] = BigInt(now - 50);
    const found = sweepBatch(board, batch, now, 20);
    expect(found.takenBack).toEqual([items[1], items[2]]);
    expect(board.phase(1, 7)).toBeNull(); // the worker's claim of it will now fail

    new BigInt64Array(slots.startedAt)[0] = BigInt(now - 1500);
    expect(sweepBatch(board, batch, now, 20).overdue).toBe(items[0]);
  });
});
