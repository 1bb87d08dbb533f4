import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.js';
import { pendingRun as pending } from './test-helpers.js';

/** The default pool: 2 active workers on the main lane. */
const ACTIVE = 2;
const OK = { first: false, ok: true };

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
      b.tools.done(run, ms, OK);
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
    b.tools.done(over, 1000);
    b.enqueue(pending('fast'));
    expect(b.take('main', ACTIVE)).toBeNull();
    const back = b.take('slow', 1)!;
    expect(back).toHaveLength(1);
    for (let i = 0; i < 20; i++) {
      b.tools.done(back[0]!, 0.1);
      const r = pending('fast');
      b.enqueue(r);
      const got = b.take('main', ACTIVE) ?? b.take('slow', 1);
      back[0] = got![0]!;
    }
    b.tools.done(back[0]!, 0.1);
    b.enqueue(pending('fast'));
    expect(b.take('main', ACTIVE)).toHaveLength(1);
  });

  it('sends a new tool alone to the slow lane until it succeeds, then batches it once fast', () => {
    const b = new Batcher();
    const news = [pending('new'), pending('new'), pending('new')];
    for (const r of news) b.enqueue(r);
    expect(b.take('main', ACTIVE)).toBeNull(); // nothing proves it safe yet
    for (const r of news) expect(b.take('slow', 1)).toEqual([r]);
    b.tools.done(news[0]!, 300, { first: true, ok: true }); // its first success
    b.enqueue(pending('new'));
    expect(b.take('main', ACTIVE)).toHaveLength(1);
    for (const r of news.slice(1)) b.tools.done(r, 0.1, OK);
    for (let i = 0; i < 30; i++) {
      const r = pending('new');
      b.enqueue(r);
      b.take('main', ACTIVE);
      b.tools.done(r, 0.1, OK);
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
    b.tools.hold(h1);
    expect(b.take('slow', 1)).toEqual([s1]);
    expect(b.take('slow', 1)).toEqual([s2]);
  });

  it('once held runs have no room, lets a tool with a held run use all but one active worker', () => {
    const b = trained();
    for (let i = 0; i < 3; i++) {
      const r = pending('slow2');
      b.enqueue(r);
      b.take('main', ACTIVE) ?? b.take('slow', 2);
      b.tools.done(r, 900);
    }
    const [h1, s1, s2, t1] = [pending('slow'), pending('slow'), pending('slow'), pending('slow2')];
    for (const r of [h1, s1, s2, t1]) b.enqueue(r);
    expect(b.take('slow', 2, true)).toEqual([h1]);
    b.tools.hold(h1);
    expect(b.take('slow', 2, true)).toEqual([s1]); // one active worker for the tool
    expect(b.take('slow', 2, true)).toEqual([t1]); // s2 may not take the other one
    expect(b.take('slow', 2, true)).toBeNull();
    b.tools.done(h1, 1000);
    b.tools.done(s1, 1);
    expect(b.take('slow', 2, true)).toEqual([s2]);
  });

  it("leaves a worker's first (warming-up) run out of the mean, but not an overdue one", () => {
    const b = new Batcher();
    const cold = [pending('cold'), pending('cold'), pending('cold')];
    b.enqueue(cold[0]!);
    expect(b.take('slow', 1)).toEqual([cold[0]]);
    b.tools.done(cold[0]!, 400, { first: true, ok: true }); // built its tables: the mean stays
    b.enqueue(cold[1]!);
    expect(b.take('main', ACTIVE)).toEqual([cold[1]]); // proven, not slow
    b.tools.done(cold[1]!, 0.1, OK);
    b.enqueue(cold[2]!);
    expect(b.take('main', ACTIVE)).toEqual([cold[2]]);
    b.tools.done(cold[2]!, 5000); // overdue: counts
    const [a, c] = [pending('cold'), pending('cold')];
    b.enqueue(a);
    b.enqueue(c);
    expect(b.take('slow', 1)).toEqual([a]); // slow now: alone, on the slow lane
  });

  it('keeps how long successful runs usually take, first runs on a worker apart', () => {
    const b = new Batcher();
    expect(b.tools.usualMs('t', true)).toBeNull();
    const runs = [pending('t'), pending('t'), pending('t')];
    for (const r of runs) {
      b.enqueue(r);
      b.take('main', ACTIVE);
    }
    b.tools.done(runs[0]!, 350, { first: true, ok: true });
    b.tools.done(runs[1]!, 2, { first: false, ok: true });
    b.tools.done(runs[2]!, 4000, { first: false, ok: false }); // a TIMEOUT: not usual
    expect(b.tools.usualMs('t', true)).toBe(350);
    expect(b.tools.usualMs('t', false)).toBe(2);
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
    b.requeue([back], Date.now());
    expect(b.expire(Date.now(), 2000)).toEqual([late]);
    expect(b.take('main', ACTIVE)).toEqual([back]);
  });
});
