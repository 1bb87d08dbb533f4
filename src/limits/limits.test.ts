import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, errorBody, getRun as get, policyFile, type TestApp } from '../../test/helpers.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** The limits a run passes before the pool (src/limits/limits.ts), through the app. */
describe('limits before the pool', () => {
  it('rate-limits at exactly limit + burst per client and tool, with the RateLimit headers', async () => {
    const file = await policyFile({ tools: { 'fx-echo': { limit: 3, burst: 2, windowSec: 60 } } });
    app = await buildTestApp({ POLICY_FILE: file });
    const statuses: number[] = [];
    const remaining: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await get(app, 'fx-echo', String(i));
      statuses.push(res.statusCode);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(remaining).toEqual(['4', '3', '2', '1', '0', '0']);
    const last = await get(app, 'fx-echo', 'x');
    // q is what a fresh client may make per window, the burst included (docs/api.md).
    expect(last.headers['ratelimit-policy']).toMatch(/^"fx-echo";q=5;w=60, /);
    expect(last.headers.ratelimit).toMatch(/^"fx-echo";r=0;t=\d+$/);
    expect(Number(last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last.headers['x-ratelimit-limit']).toBe('5');
    const body = errorBody(last);
    expect(body.errorCode).toBe('RATE_LIMITED');
    expect(body.rateLimit).toMatchObject({ limit: 3, burst: 2, windowSec: 60, remaining: 0 });
    expect(body.rateLimit?.retryAfterSec).toBe(Number(last.headers['retry-after']));
    // Another tool is another bucket; the dedicated surface shares the runtime's bucket.
    expect((await get(app, 'fx-big', '1')).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/fx-echo/?text=1' })).statusCode).toBe(429);
  });

  it('spends a client compute budget and answers BUDGET_EXCEEDED with Retry-After', async () => {
    const file = await policyFile({ tools: { 'fx-sleep': { computeBudgetMs: 50, timeoutMs: 2000 } } });
    app = await buildTestApp({ POLICY_FILE: file });
    const sleep = () =>
      app!.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: '80' } });
    expect((await sleep()).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const res = await sleep();
    expect(res.statusCode).toBe(429);
    expect(errorBody(res).errorCode).toBe('BUDGET_EXCEEDED');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // The rateLimit block's hint is the wait of the refusal met, as Retry-After.
    expect(errorBody(res).rateLimit?.retryAfterSec).toBe(Number(res.headers['retry-after']));
  });

  it('hints no wait (retryAfterSec 0) on an answer that was not refused by a limit', async () => {
    app = await buildTestApp();
    // Refused by the tool after the limiter: runs are left, and waiting would change nothing.
    const bad = await get(app, 'fx-echo', 'bad');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['retry-after']).toBeUndefined();
    expect(errorBody(bad).rateLimit).toMatchObject({ retryAfterSec: 0 });
    expect(errorBody(bad).rateLimit!.remaining).toBeGreaterThan(0);
  });

  it('lets runs past the per-client cap wait their turn, never delaying another client', async () => {
    // A deadline far above the 200 ms sleeps: on a starved machine a timer fires late, and
    // this test is about the cap's queue, not deadlines.
    const file = await policyFile({ tools: { 'fx-sleep': { maxInFlightPerClient: 1, timeoutMs: 5000 } } });
    app = await buildTestApp({ POLICY_FILE: file, TRUST_PROXY: 'true', POOL_THREADS: '2' });
    const finished: string[] = [];
    const sleep = (ip: string, ms: number) =>
      app!
        .inject({
          method: 'POST',
          url: '/api/tools/run/',
          payload: { toolId: 'fx-sleep', a: String(ms) },
          headers: { 'x-forwarded-for': ip },
        })
        .then((res) => {
          finished.push(ip);
          return res;
        });
    const started = Date.now();
    const a = [sleep('10.0.0.1', 200), sleep('10.0.0.1', 200), sleep('10.0.0.1', 200)];
    const b1 = await sleep('10.0.0.2', 1);
    // Judged by order, not by time: the other client's run did not queue behind 10.0.0.1's
    // (at most the first of those could end before it), while those went one at a time.
    expect(b1.statusCode).toBe(200);
    expect(finished.filter((ip) => ip === '10.0.0.1').length).toBeLessThanOrEqual(1);
    expect((await Promise.all(a)).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    // One at a time: three 200 ms runs cannot end sooner (a lower bound holds on any machine).
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it('refuses a run past the per-client cap once it has waited CAP_WAIT_MS (429 CONCURRENCY_LIMIT)', async () => {
    const file = await policyFile({ tools: { 'fx-sleep': { maxInFlightPerClient: 1, timeoutMs: 5000 } } });
    app = await buildTestApp({ POLICY_FILE: file, CAP_WAIT_MS: '100' });
    const sleep = () =>
      app!.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: '1000' } });
    const [a1, a2] = await Promise.all([sleep(), sleep()]);
    expect([a1.statusCode, a2.statusCode].sort()).toEqual([200, 429]);
    const refused = a1.statusCode === 429 ? a1 : a2;
    expect(errorBody(refused)).toMatchObject({ errorCode: 'CONCURRENCY_LIMIT' });
    expect(errorBody(refused).error).toContain('per client');
    expect(refused.headers['retry-after']).toBe('1');
  });

  it('lets runs past the per-tool cap wait, then refuses past CAP_WAIT_MS (429)', async () => {
    const file = await policyFile({ tools: { 'fx-sleep': { maxInFlight: 1, timeoutMs: 5000 } } });
    app = await buildTestApp({ POLICY_FILE: file, TRUST_PROXY: 'true', CAP_WAIT_MS: '400' });
    const sleep = (ip: string, ms: number) =>
      app!.inject({
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-sleep', a: String(ms) },
        headers: { 'x-forwarded-for': ip },
      });
    // A short run: the second client waits for it and runs.
    expect(
      (await Promise.all([sleep('10.0.0.1', 100), sleep('10.0.0.2', 1)])).map((r) => r.statusCode),
    ).toEqual([200, 200]);
    // A run longer than the bound: the second client is refused after waiting.
    const res = await Promise.all([sleep('10.0.0.1', 1500), sleep('10.0.0.2', 1)]);
    expect(res.map((r) => r.statusCode)).toEqual([200, 429]);
    expect(errorBody(res[1]!).error).toContain('runs in flight on this instance');
  });
});
