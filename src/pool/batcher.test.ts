import { describe, expect, it } from 'vitest';
import { RunSlots, sharedSlots } from '../shared/run-slots.js';
import { Batcher, type PendingRun } from './batcher.js';
import type { InFlightBatch } from './lane.js';
import { sweepBatch } from './sweep.js';

/** The default pool: 2 active workers on the main lane. */
const ACTIVE = 2;
const OK = { first: false, ok: true };
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
  held: false,
  lowered: null,
  returns: 0,
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
      const run = pending(tool);
      b.enqueue(run);
      expect(b.take('main', ACTIVE) ?? b.take('slow', 1)).toEqual([run]);
      b.done(run, ms, OK);
    }
  }
  return b;
}

describe('Batcher', () => {
  it('sends fast runs that wait together as one batch, in arrival order', () => {
    const b = trained();
    const runs = [pending('fast'), pending('fast'), pending('fast')];
    for (const r of runs) b.enqueue(r);
    expect(b.take('main', ACTIVE)).toEqual(runs);
    expect(b.take('main', ACTIVE)).toBeNull();
  });

  it('sends a slow run alone, to the slow lane, and leaves it out of fast batches', () => {
    const b = trained();
    const [f1, s1, s2, f2] = [pending('fast'), pending('slow'), pending('slow'), pending('fast')];
    for (const r of [f1, s1, s2, f2]) b.enqueue(r);
    expect(b.take('slow', 1)).toEqual([s1]);
    expect(b.take('main', ACTIVE)).toEqual([f1, f2]);
    expect(b.take('main', ACTIVE)).toBeNull();
    expect(b.take('slow', 1)).toEqual([s2]);
  });

  it('moves a tool to the slow lane after an overdue run, and back as its runs go fast', () => {
    const b = trained();
    const over = pending('fast');
    b.enqueue(over);
    b.take('main', ACTIVE);
    b.done(over, 1000);
    b.enqueue(pending('fast'));
    expect(b.take('main', ACTIVE)).toBeNull();
    const back = b.take('slow', 1)!;
    expect(back).toHaveLength(1);
    for (let i = 0; i < 20; i++) {
      b.done(back[0]!, 0.1);
      const r = pending('fast');
      b.enqueue(r);
      const got = b.take('main', ACTIVE) ?? b.take('slow', 1);
      back[0] = got![0]!;
    }
    b.done(back[0]!, 0.1);
    b.enqueue(pending('fast'));
    expect(b.take('main', ACTIVE)).toHaveLength(1);
  });

  it('sends a new tool alone to the slow lane until it succeeds, then batches it once fast', () => {
    const b = new Batcher();
    const news = [pending('new'), pending('new'), pending('new')];
    for (const r of news) b.enqueue(r);
    expect(b.take('main', ACTIVE)).toBeNull(); // nothing proves it safe yet
    for (const r of news) expect(b.take('slow', 1)).toEqual([r]);
    b.done(news[0]!, 300, { first: true, ok: true }); // its first success
    b.enqueue(pending('new'));
    expect(b.take('main', ACTIVE)).toHaveLength(1);
    for (const r of news.slice(1)) b.done(r, 0.1, OK);
    for (let i = 0; i < 30; i++) {
      const r = pending('new');
      b.enqueue(r);
      b.take('main', ACTIVE);
      b.done(r, 0.1, OK);
    }
    const later = [pending('new'), pending('new')];
    for (const r of later) b.enqueue(r);
    expect(b.take('main', ACTIVE)).toEqual(later);
  });

  it('lets the runs of a tool with a held run flow while its lane has room for held runs', () => {
    const b = trained();
    const [h1, s1, s2] = [pending('slow'), pending('slow'), pending('slow')];
    for (const r of [h1, s1, s2]) b.enqueue(r);
    expect(b.take('slow', 1)).toEqual([h1]);
    b.hold(h1);
    expect(b.take('slow', 1)).toEqual([s1]);
    expect(b.take('slow', 1)).toEqual([s2]);
  });

  it('once held runs have no room, lets a tool with a held run use all but one active worker', () => {
    const b = trained();
    for (let i = 0; i < 3; i++) {
      const r = pending('slow2');
      b.enqueue(r);
      b.take('main', ACTIVE) ?? b.take('slow', 2);
      b.done(r, 900);
    }
    const [h1, s1, s2, t1] = [pending('slow'), pending('slow'), pending('slow'), pending('slow2')];
    for (const r of [h1, s1, s2, t1]) b.enqueue(r);
    expect(b.take('slow', 2, true)).toEqual([h1]);
    b.hold(h1);
    expect(b.take('slow', 2, true)).toEqual([s1]); // one active worker for the tool
    expect(b.take('slow', 2, true)).toEqual([t1]); // s2 may not take the other one
    expect(b.take('slow', 2, true)).toBeNull();
    b.done(h1, 1000);
    b.done(s1, 1);
    expect(b.take('slow', 2, true)).toEqual([s2]);
  });

  it("leaves a worker's first (warming-up) run out of the mean, but not an overdue one", () => {
    const b = new Batcher();
    const cold = [pending('cold'), pending('cold'), pending('cold')];
    b.enqueue(cold[0]!);
    expect(b.take('slow', 1)).toEqual([cold[0]]);
    b.done(cold[0]!, 400, { first: true, ok: true }); // built its tables: the mean stays
    b.enqueue(cold[1]!);
    expect(b.take('main', ACTIVE)).toEqual([cold[1]]); // proven, not slow
    b.done(cold[1]!, 0.1, OK);
    b.enqueue(cold[2]!);
    expect(b.take('main', ACTIVE)).toEqual([cold[2]]);
    b.done(cold[2]!, 5000); // overdue: counts
    const [a, c] = [pending('cold'), pending('cold')];
    b.enqueue(a);
    b.enqueue(c);
    expect(b.take('slow', 1)).toEqual([a]); // slow now: alone, on the slow lane
  });

  it('keeps how long successful runs usually take, first runs on a worker apart', () => {
    const b = new Batcher();
    expect(b.usualMs('t', true)).toBeNull();
    const runs = [pending('t'), pending('t'), pending('t')];
    for (const r of runs) {
      b.enqueue(r);
      b.take('main', ACTIVE);
    }
    b.done(runs[0]!, 350, { first: true, ok: true });
    b.done(runs[1]!, 2, { first: false, ok: true });
    b.done(runs[2]!, 4000, { first: false, ok: false }); // a TIMEOUT: not usual
    expect(b.usualMs('t', true)).toBe(350);
    expect(b.usualMs('t', false)).toBe(2);
  });

  it('caps a batch by items and by bytes', () => {
    const b = trained();
    for (let i = 0; i < 40; i++) b.enqueue(pending('fast'));
    expect(b.take('main', ACTIVE)).toHaveLength(32);
    expect(b.take('main', ACTIVE)).toHaveLength(8);
    const big = [pending('fast', 200_000), pending('fast', 200_000)];
    for (const r of big) b.enqueue(r);
    expect(b.take('main', ACTIVE)).toEqual([big[0]]);
  });

  it('puts runs taken back at the front, with a fresh queue wait, and expires runs past the bound', () => {
    const b = trained();
    const long = Date.now() - 5000;
    const late = { ...pending('fast'), enqueuedAt: long, waitingSince: long };
    const back = { ...pending('fast'), enqueuedAt: long, waitingSince: long };
    b.enqueue(late);
    b.requeue([back]);
    expect(b.expire(Date.now(), 2000)).toEqual([late]);
    expect(b.take('main', ACTIVE)).toEqual([back]);
  });
});

describe('sweepBatch', () => {
  it('takes back the runs queued behind a long run, and flags it overdue at its deadline', () => {
    const shared = sharedSlots(8);
    const slots = new RunSlots(shared);
    const items = [pending('fast'), pending('fast'), pending('fast')].map((r, i) => ({ ...r, slot: i }));
    const lane = {} as InFlightBatch['lane']; // not used by the sweep
    const batch: InFlightBatch = {
      id: 7,
      lane,
      items,
      controller: new AbortController(),
      overdue: null,
      held: null,
    };
    for (const r of items) slots.assign(r.slot, batch.id);
    // The worker claims the first run (as workers/tool-worker.ts does).
    expect(slots.claim(0, 7, 1234, false)).toBe(true);
    expect(slots.threadOf(0)).toBe(1234);
    const started = new BigInt64Array(shared.startedAt);
    const now = Date.now();
    const times = { now, takeBackAfterMs: 20 };
    started[0] = BigInt(now - 5);
    expect(sweepBatch(slots, batch, times)).toEqual({
      overdue: null,
      takenBack: [],
      running: items[0],
      ranMs: 5,
    });

    started[0] = BigInt(now - 50);
    const found = sweepBatch(slots, batch, times);
    expect(found.takenBack).toEqual([items[1], items[2]]);
    expect(slots.phase(1, 7)).toBeNull();
    expect(slots.claim(1, 7, 1234, false)).toBe(false); // the worker's claim of it now fails

    started[0] = BigInt(now - 500);
    expect(sweepBatch(slots, batch, times)).toMatchObject({ overdue: null, running: items[0], ranMs: 500 });
    started[0] = BigInt(now - 1500);
    expect(sweepBatch(slots, batch, times).overdue).toBe(items[0]);
    expect(slots.lower(0)).toBe(true);
    expect(slots.lower(0)).toBe(false); // once
    expect(slots.finish(0, 7)).toBe(true);
    // A worker's first run of a tool says so.
    slots.assign(2, 8);
    expect(slots.claim(2, 8, 1234, true)).toBe(true);
    expect(slots.firstRun(2)).toBe(true);
    expect(slots.finish(2, 8)).toBe(false);
  });
});
