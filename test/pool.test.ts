import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { NETWORK_DISABLED_MESSAGE } from '../src/shared/envelope.js';
import {
  buildTestApp,
  errorBody,
  getRun as get,
  metricValue as metric,
  policyFile,
  type TestApp,
} from './helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the pool', () => {
  it('terminates an endless loop at timeoutMs with TIMEOUT, replaces the worker and keeps serving', async () => {
    app = await buildTestApp();
    const res = await get(app, 'fx-spin', '1');
    expect(res.statusCode, res.body).toBe(504);
    const body = errorBody(res);
    expect(body.errorCode).toBe('TIMEOUT');
    expect(body.error).toContain('300 ms');
    expect(body.runtime?.durationMs).toBeGreaterThanOrEqual(300);
    const ok = await get(app, 'fx-echo', 'still here');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.text).toBe('still here');
    await expect
      .poll(() => metric(app!, 'toolhub_worker_restarts_total'), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(1);
  });

  it('answers BUDGET_EXCEEDED when a run passes the worker heap limit, and the pool recovers', async () => {
    const file = await policyFile({ tools: { 'fx-oom': { timeoutMs: 30_000 } } });
    app = await buildTestApp({ POLICY_FILE: file, WORKER_HEAP_MB: '32', POOL_THREADS: '1' });
    const res = await get(app, 'fx-oom', '1');
    expect(res.statusCode).toBe(429);
    const body = errorBody(res);
    expect(body.errorCode).toBe('BUDGET_EXCEEDED');
    expect(body).toMatchObject({ reason: 'memory', error: expect.stringContaining('memory cap of 32 MB') });
    expect((await get(app, 'fx-echo', 'alive')).statusCode).toBe(200);
  });

  it('answers BUDGET_EXCEEDED when the result is over RESULT_MAX_BYTES', async () => {
    app = await buildTestApp({ RESULT_MAX_BYTES: '4096' });
    expect((await get(app, 'fx-big', '2')).statusCode).toBe(200);
    const res = await get(app, 'fx-big', '8');
    expect(res.statusCode).toBe(429);
    expect(errorBody(res)).toMatchObject({
      reason: 'resultSize',
      error: expect.stringContaining('larger than the limit of 4096 bytes'),
    });
  });

  it('gives a generic INTERNAL_ERROR for a bug, with no detail', async () => {
    app = await buildTestApp();
    const res = await get(app, 'fx-throw', '1');
    expect(res.statusCode).toBe(500);
    const body = errorBody(res);
    expect(body).toMatchObject({ errorCode: 'INTERNAL_ERROR', error: 'internal error' });
    expect(res.body).not.toContain('secret');
  });

  it.each(['fetch', 'http', 'net', 'dns'])('refuses network access from a tool (%s)', async (how) => {
    app = await buildTestApp();
    const res = await get(app, 'fx-network', how);
    expect(res.statusCode).toBe(500);
    expect(errorBody(res)).toMatchObject({ error: NETWORK_DISABLED_MESSAGE, reason: 'network' });
    expect(NETWORK_DISABLED_MESSAGE).toMatch(/toolhub\.needs\.network.*TOOL_NETWORK/);
  });

  it('answers CONCURRENCY_LIMIT 503 when the queue is full', async () => {
    const file = await policyFile({ tools: { 'fx-sleep': { timeoutMs: 5000 } } });
    app = await buildTestApp({ POOL_THREADS: '1', POOL_MAX_QUEUE: '0', POLICY_FILE: file });
    await get(app, 'fx-echo', 'warm');
    const slow = app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload: { toolId: 'fx-sleep', a: '1500' },
    });
    // The slow run holds the only slot (a fixed sleep here would race a loaded machine).
    await expect.poll(() => app!.pool.stats().inUse).toBe(1);
    const res = await get(app, 'fx-echo', 'x');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(errorBody(res).error).toContain('queue is full');
    expect((await slow).statusCode).toBe(200);
  });

  it('answers CONCURRENCY_LIMIT 503 when a run waits past QUEUE_WAIT_MS, without starting it', async () => {
    // No overflow: one long run is held on the spare, the second keeps the active worker,
    // so a third run finds no worker. Long sleeps: the bound is surely passed on a loaded machine.
    const file = await policyFile({ tools: { 'fx-sleep': { timeoutMs: 5000, maxInFlightPerClient: 8 } } });
    app = await buildTestApp({
      POOL_THREADS: '1',
      POOL_OVERFLOW_THREADS: '0',
      QUEUE_WAIT_MS: '400',
      POLICY_FILE: file,
    });
    const sleep = (ms: string) =>
      app!.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: ms } });
    // One success proves the tool: it runs on the main lane from then on.
    expect((await sleep('1')).statusCode).toBe(200);
    const slow = [sleep('2500'), sleep('2500')];
    await expect.poll(() => app!.pool.stats()).toMatchObject({ inUse: 2, held: 1 });
    const res = await sleep('1');
    expect(res.statusCode).toBe(503);
    expect(errorBody(res).error).toContain('no worker was free within 400 ms');
    expect((await Promise.all(slow)).map((r) => r.statusCode)).toEqual([200, 200]);
  });

  it('sends fast runs that wait together as one batch; an overdue batch-mate fails alone', async () => {
    // The overdue run's deadline is long (3 s) beside what a run behind it may pay to move:
    // another worker's first load of the tool, which a loaded machine can stretch to
    // hundreds of milliseconds and which counts as queue time.
    const policy = { maxInFlightPerClient: 50, maxInFlight: 50, timeoutMs: 3000 };
    const file = await policyFile({ tools: { 'fx-mixed': policy } });
    app = await buildTestApp({ POLICY_FILE: file, POOL_THREADS: '2' });
    const run = (text: string) => get(app!, 'fx-mixed', text);
    // A tool with no history counts as slow (its runs travel alone) until it proves fast.
    for (let i = 0; i < 30; i++) expect((await run(`warm ${i}`)).statusCode).toBe(200);
    const texts = ['a1', 'a2', 'a3', 'a4', 'spin', 'b1', 'b2', 'b3', 'b4'];
    const finished: string[] = [];
    const answers = await Promise.all(texts.map((t) => run(t).finally(() => finished.push(t))));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 504, 200, 200, 200, 200]);
    answers.forEach((r, i) => {
      if (texts[i] !== 'spin') expect(r.json().result.text).toBe(texts[i]);
    });
    // Runs queued behind the overdue one are taken back and run elsewhere: they do not wait
    // it out. Judged by order (each answered before it) and against its own time, not a
    // fixed bound, so a starved machine that slows both does not fail it. (Runs ahead of it
    // in the batch lose their results with its worker and run again after its deadline:
    // docs/architecture.md, "Batching and take-back".)
    for (const b of ['b1', 'b2', 'b3', 'b4'])
      expect(finished.indexOf(b)).toBeLessThan(finished.indexOf('spin'));
    const behind = answers.slice(5).map((r) => r.json().runtime.queuedMs as number);
    const spin = answers[4]!.json().runtime as { queuedMs: number; durationMs: number };
    expect(Math.max(...behind)).toBeLessThan(spin.durationMs);
    const text = (await app.inject({ url: '/metrics' })).body;
    const sum = Number(/toolhub_pool_batch_runs_sum (\d+)/.exec(text)?.[1]);
    const count = Number(/toolhub_pool_batch_runs_count (\d+)/.exec(text)?.[1]);
    expect(sum).toBeGreaterThan(count); // some batch carried more than one run
  });

  it('holds a long run off the active workers, and lowers the priority of a tool known to run away', async () => {
    const file = await policyFile({ tools: { 'fx-mixed': { timeoutMs: 600, maxInFlightPerClient: 8 } } });
    app = await buildTestApp({ POOL_THREADS: '1', POLICY_FILE: file });
    // Successful runs (first ones on a worker too) tell the pool how long fx-mixed usually takes.
    for (let i = 0; i < 10; i++) await get(app, 'fx-mixed', `warm ${i}`);
    const niceOf = (tid: string) =>
      Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
    const lowered = () => readdirSync('/proc/self/task').map(niceOf).includes(10);
    // The first runaway is held (a good run goes on beside it) but keeps its priority.
    const first = get(app, 'fx-mixed', 'spin');
    await expect.poll(() => app!.pool.stats().held).toBe(1);
    expect((await get(app, 'fx-mixed', 'beside it')).statusCode).toBe(200);
    expect(lowered()).toBe(false);
    expect((await first).statusCode).toBe(504);
    // Now fx-mixed is known to run away: its next runaway's thread runs at nice 10 (Linux).
    const second = get(app, 'fx-mixed', 'spin');
    await expect.poll(lowered, { timeout: 1500 }).toBe(true);
    expect((await get(app, 'fx-echo', 'still')).statusCode).toBe(200);
    expect((await second).statusCode).toBe(504);
    expect(app.pool.stats().held).toBe(0);
  });

  it('starts the deadline when the run starts, not when it is queued', async () => {
    // Two 240 ms runs on one thread with a 450 ms timeout: the second waits ~240 ms (until
    // the first ends, or is held at 250 ms and the spare worker takes it) and then runs
    // 240 ms, ~480 ms after it was queued: it must not time out. Each run has 210 ms of
    // margin for a loaded machine, where a sleeping thread wakes late.
    const file = await policyFile({ tools: { 'fx-sleep': { timeoutMs: 450 } } });
    app = await buildTestApp({ POOL_THREADS: '1', POLICY_FILE: file });
    await get(app, 'fx-echo', 'warm');
    const runs = await Promise.all(
      [1, 2].map(() =>
        app!.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: '240' } }),
      ),
    );
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200]);
    const second = runs.map((r) => r.json().runtime).sort((x, y) => y.queuedMs - x.queuedMs)[0];
    expect(second.queuedMs).toBeGreaterThan(200);
    expect(second.queuedMs + second.durationMs).toBeGreaterThan(450);
  });
});
