import { describe, expect, it } from 'vitest';
import { Rig } from './test-helpers.js';
import { POOL_TUNING } from './tuning.js';

const T = POOL_TUNING;

describe('Scheduler: lanes', () => {
  it('sends a new tool to the slow lane, a proven fast one to the main lane, and an overdue one back', () => {
    const rig = new Rig();
    rig.submit('t');
    const [first] = rig.dispatch();
    expect(first!.lane.kind).toBe('slow');
    rig.start(first!, 0, { first: true });
    rig.answer(first!, 3, true);
    rig.submit('t');
    const [second] = rig.dispatch();
    expect(second!.lane.kind).toBe('main');
    rig.start(second!);
    rig.advance(1001); // past its 1000 ms deadline
    expect(rig.workers.aborted).toEqual([second]);
    rig.fail(second!, new Error('aborted'));
    rig.submit('t');
    expect(rig.dispatch()[0]!.lane.kind).toBe('slow');
  });

  it('refuses a run past capacity (threads + maxQueue) and after close()', () => {
    const rig = new Rig({ threads: 1, maxQueue: 1 });
    const [a, b, c] = [rig.submit('t'), rig.submit('t'), rig.submit('t')];
    expect(a.outcome).toBeUndefined();
    expect(b.outcome).toBeUndefined();
    expect(c.outcome).toMatchObject({ ok: false, code: 'CONCURRENCY_LIMIT', status: 503 });
    expect(rig.scheduler.inUse).toBe(2);
    rig.scheduler.close(rig.now);
    expect(a.outcome).toMatchObject({
      code: 'CONCURRENCY_LIMIT',
      message: expect.stringContaining('shutting down'),
    });
    expect(rig.submit('t').outcome).toMatchObject({ message: expect.stringContaining('shutting down') });
    expect(rig.scheduler.inUse).toBe(0);
  });
});

describe('Scheduler: held runs', () => {
  it(`holds a run after holdAfterMs (${T.holdAfterMs}), freeing an active worker for the next batch`, () => {
    const rig = new Rig({ threads: 1 });
    rig.train('t', 30, 3); // proven, on the main lane (one active worker)
    rig.submit('t');
    rig.submit('t');
    const [batch] = rig.dispatch();
    rig.start(batch!);
    expect(rig.dispatch()).toEqual([]); // the one active worker is busy
    rig.advance(T.holdAfterMs);
    expect(rig.scheduler.held).toBe(0);
    rig.advance(1);
    expect(rig.scheduler.held).toBe(1);
    expect(rig.workers.sent.at(-1)!.lane.kind).toBe('main'); // the waiting run started beside it
    expect(rig.workers.sent).toHaveLength(5);
  });

  it('is steered by the tuning: another holdAfterMs holds at another time', () => {
    const rig = new Rig({ threads: 1 }, { holdAfterMs: 40 });
    rig.train('t', 30, 3);
    rig.submit('t');
    const [batch] = rig.dispatch();
    rig.start(batch!);
    rig.advance(41);
    expect(rig.scheduler.held).toBe(1);
  });

  it(`holds a first run of a tool after firstRunMs (${T.firstRunMs}), then after ${T.firstRunFactor}× what first runs take`, () => {
    const rig = new Rig();
    rig.submit('t');
    const [cold] = rig.dispatch();
    rig.start(cold!, 0, { first: true });
    rig.advance(T.holdAfterMs + 1);
    expect(rig.scheduler.held).toBe(0); // building its tables: not held yet
    rig.advance(T.firstRunMs - T.holdAfterMs);
    expect(rig.scheduler.held).toBe(1);
    rig.answer(cold!, T.firstRunMs + 1, true);
    expect(rig.scheduler.held).toBe(0);
    rig.submit('t');
    const [next] = rig.dispatch();
    rig.start(next!, 0, { first: true });
    const usual = T.firstRunMs + 1;
    rig.advance(T.firstRunFactor * usual);
    expect(rig.scheduler.held).toBe(0);
    rig.advance(1);
    expect(rig.scheduler.held).toBe(1);
  });

  it('keeps a long run active once its lane has no room for held runs', () => {
    const rig = new Rig({ threads: 1, overflow: 0 }); // slow lane: 1 active worker and the spare
    rig.submit('x');
    rig.submit('y');
    const [x] = rig.dispatch();
    expect(rig.workers.sent).toHaveLength(1);
    rig.start(x!, 0, { first: true });
    rig.advance(T.firstRunMs + 1);
    expect(rig.scheduler.held).toBe(1); // held on the spare: y starts beside it
    const y = rig.workers.sent.at(-1)!;
    expect(y.items[0]!.toolId).toBe('y');
    rig.start(y, 0, { first: true });
    rig.advance(T.firstRunMs + 1);
    expect(rig.scheduler.held).toBe(1); // no worker left to hold it on: y stays active
    const z = rig.submit('z');
    expect(rig.dispatch()).toEqual([]);
    expect(z.outcome).toBeUndefined();
  });

  it('lets a tool with a held run use only its share of the active workers once the lane is full', () => {
    const rig = new Rig({ threads: 3, overflow: 0 }); // slow lane: 2 active, room for 1 held run
    const runaways = [rig.submit('r'), rig.submit('r'), rig.submit('r')];
    rig.submit('good');
    const [r1, r2] = rig.dispatch();
    expect([r1!.lane.kind, r2!.lane.kind]).toEqual(['slow', 'slow']);
    rig.start(r1!, 0, { first: true });
    rig.start(r2!, 0, { first: true });
    rig.advance(T.firstRunMs + 1);
    expect(rig.scheduler.held).toBe(1);
    // The third runaway arrived first, but its tool already has its share: the good run goes.
    const next = rig.workers.sent.at(-1)!;
    expect(next.items.map((run) => run.toolId)).toEqual(['good']);
    expect(runaways.map((t) => t.outcome)).toEqual([undefined, undefined, undefined]);
  });
});

describe('Scheduler: lowering and deadlines', () => {
  /** A rig with a held run of `toolId` started now on thread 7 (on the slow lane: a new tool). */
  function heldRun(rig: Rig, toolId: string, timeoutMs = 10_000) {
    rig.submit(toolId, timeoutMs);
    const batch = rig.dispatch()[0]!;
    const run = rig.start(batch, 0, { tid: 7 });
    return { batch, run };
  }

  /** Makes `toolId` known to run away: one of its runs passes its deadline and is stopped. */
  function runAway(rig: Rig, toolId: string): void {
    rig.submit(toolId, 100);
    const batch = rig.dispatch()[0]!;
    rig.start(batch);
    rig.advance(101);
    expect(rig.workers.aborted).toContain(batch);
    rig.fail(batch, new Error('aborted'));
  }

  it('never lowers the held run of a tool that has not run away', () => {
    const rig = new Rig();
    heldRun(rig, 'heavy');
    rig.advance(5000);
    expect(rig.scheduler.held).toBe(1);
    expect(rig.workers.lowered).toEqual([]);
  });

  it(`lowers the held run of a tool known to run away, past lowerAfterMs (${T.lowerAfterMs}), once`, () => {
    const rig = new Rig();
    runAway(rig, 'regex');
    const { run } = heldRun(rig, 'regex');
    rig.workers.cpu.set(7, 40);
    rig.advance(T.lowerAfterMs);
    expect(rig.workers.lowered).toEqual([]);
    rig.advance(1);
    expect(rig.workers.lowered).toEqual([7]);
    expect(run.lowered).toEqual({ at: rig.now, cpuMs: 40 });
    rig.advance(100);
    expect(rig.workers.lowered).toEqual([7]);
  });

  it(`forgets a runaway after runsAwayMs (${T.runsAwayMs})`, () => {
    const rig = new Rig();
    runAway(rig, 'regex');
    rig.now += T.runsAwayMs;
    heldRun(rig, 'regex');
    rig.advance(5000);
    expect(rig.workers.lowered).toEqual([]);
  });

  it('charges a lowered run its CPU time, up to loweredDeadlineFactor × timeoutMs of wall time', () => {
    const rig = new Rig();
    runAway(rig, 'regex');
    const { batch } = heldRun(rig, 'regex', 1000);
    rig.workers.cpu.set(7, 0);
    rig.advance(T.lowerAfterMs + 1); // lowered now, charged 251 ms so far
    rig.workers.cpu.set(7, 700); // 951 ms charged
    rig.advance(1000); // wall time 1251 ms: past timeoutMs, not past its charge
    expect(rig.workers.aborted).not.toContain(batch);
    rig.workers.cpu.set(7, 760); // 1011 ms charged
    rig.advance(10);
    expect(rig.workers.aborted).toContain(batch);
  });

  it('stops a lowered run at loweredDeadlineFactor × timeoutMs of wall time, whatever its CPU time', () => {
    const rig = new Rig();
    runAway(rig, 'regex');
    const { batch } = heldRun(rig, 'regex', 1000);
    rig.workers.cpu.set(7, 0);
    rig.advance(T.lowerAfterMs + 1);
    rig.advance(T.loweredDeadlineFactor * 1000 - T.lowerAfterMs - 1);
    expect(rig.workers.aborted).not.toContain(batch);
    rig.advance(1);
    expect(rig.workers.aborted).toContain(batch);
  });

  it('gives the overdue run TIMEOUT and runs the batch-mate whose result was lost again', () => {
    const rig = new Rig();
    rig.train('fast', 0.1);
    const [done, over] = [rig.submit('fast', 50), rig.submit('fast', 50)];
    const [batch] = rig.dispatch();
    expect(batch!.items).toHaveLength(2);
    rig.start(batch!, 0);
    rig.finishRun(batch!, 0); // its result would travel with the batch's answer
    rig.start(batch!, 1);
    rig.advance(50);
    expect(rig.workers.aborted).toEqual([]);
    rig.advance(1);
    expect(rig.workers.aborted).toEqual([batch]);
    const sent = rig.workers.sent.length;
    rig.fail(batch!, new Error('aborted'));
    expect(over.outcome).toMatchObject({
      ok: false,
      code: 'TIMEOUT',
      message: 'the run exceeded its time limit of 50 ms and was stopped',
      durationMs: 51,
    });
    expect(done.outcome).toBeUndefined();
    expect(rig.workers.sent.slice(sent).flatMap((b) => b.items)).toEqual([batch!.items[0]]);
    expect(batch!.items[0]!.returns).toBe(1);
  });
});
