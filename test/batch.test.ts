/** POST /api/tools/batch/: each run answered as it alone would be, charged under its own tool's policy. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorBody, policyFile, type TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  const file = await policyFile({
    tools: {
      'fx-echo': { limit: 5, burst: 0, maxInFlightPerClient: 8 },
      'fx-sleep': { limit: 5, burst: 0, maxInFlightPerClient: 8 },
      'fx-spin': { timeoutMs: 400 },
    },
  });
  app = await buildTestApp({ POLICY_FILE: file, BATCH_MAX_RUNS: '5', BODY_LIMIT_BYTES: '8192' });
});
afterAll(async () => {
  await app.close();
});

const batch = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/tools/batch/', payload: payload as object });

describe('batch runs', () => {
  it('answers in request order, each run as it alone would have answered, mixed success and errors', async () => {
    const res = await batch({
      runs: [
        { toolId: 'fx-echo', input: { a: 'first' } },
        { toolId: 'fx-echo', a: 'bad' },
        { toolId: 'no-such-tool', a: 'x' },
        { toolId: 'fx-echo', a: 'second', mode: 'upper' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const { ok, results } = res.json();
    expect(ok).toBe(true);
    expect(results.map((r: { ok: boolean; errorCode?: string }) => r.errorCode ?? 'ok')).toEqual([
      'ok',
      'INVALID_INPUT',
      'INVALID_INPUT',
      'ok',
    ]);
    expect(results[0]).toMatchObject({
      result: { text: 'first' },
      runtime: { surface: 'batch', toolId: 'fx-echo' },
    });
    expect(results[3].result.text).toBe('SECOND');
    expect(results[2].error).toMatch(/unknown toolId/);
  });

  it('charges every run under its own tool: remaining drops by exactly the runs of each tool', async () => {
    const res = await batch({
      runs: [
        { toolId: 'fx-sleep', a: '1' },
        { toolId: 'fx-sleep', a: '1' },
        { toolId: 'fx-echo', a: 'x' },
      ],
    });
    const remaining = (res.json().results as { rateLimit: { remaining: number } }[]).map(
      (r) => r.rateLimit.remaining,
    );
    // fx-sleep: 5 a window, two runs; fx-echo: 5 a window, three runs before (first test) and one now.
    expect(remaining.slice(0, 2).sort()).toEqual([3, 4]);
    expect(remaining[2]).toBe(1);
  });

  it('answers a runaway item when it ends, without delaying the other items', async () => {
    const res = await batch({
      runs: [
        { toolId: 'fx-spin', a: '1' },
        { toolId: 'fx-sleep', a: '5' },
      ],
    });
    const [spin, sleep] = res.json().results;
    expect(spin.errorCode).toBe('TIMEOUT');
    // The sleep ran beside the runaway, not after it.
    expect(sleep.runtime.queuedMs).toBeLessThan(spin.runtime.durationMs);
  });

  it('refuses more runs than BATCH_MAX_RUNS (413), a body over the cap (413) and a bad shape (400)', async () => {
    const six = Array.from({ length: 6 }, () => ({ toolId: 'fx-echo', a: 'x' }));
    const tooMany = await batch({ runs: six });
    expect(tooMany.statusCode).toBe(413);
    expect(errorBody(tooMany)).toMatchObject({ errorCode: 'INPUT_TOO_LARGE' });
    expect(errorBody(tooMany).error).toMatch(/at most 5 runs; this one has 6/);
    const big = await batch({ runs: [{ toolId: 'fx-echo', a: 'x'.repeat(9000) }] });
    expect(big.statusCode).toBe(413);
    for (const payload of [
      {},
      { runs: [] },
      { runs: 'x' },
      { runs: [{ toolId: 'fx-echo', a: 'x' }], extra: 1 },
    ]) {
      const res = await batch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorBody(res).errorCode).toBe('INVALID_INPUT');
    }
  });
});

describe('junk inside a batch', () => {
  it('counts every refused item toward JUNK_LIMIT, so unknown-tool items block their sender', async () => {
    const junky = await buildTestApp({ JUNK_LIMIT: '10', BATCH_MAX_RUNS: '5' });
    try {
      const send = () =>
        junky.inject({
          method: 'POST',
          url: '/api/tools/batch/',
          remoteAddress: '10.9.9.9',
          payload: { runs: Array.from({ length: 5 }, () => ({ toolId: 'no-such-tool', a: 'x' })) },
        });
      expect((await send()).statusCode).toBe(200);
      expect((await send()).statusCode).toBe(200);
      // Ten refused items: the address is blocked before its body is read.
      const blocked = await send();
      expect(blocked.statusCode).toBe(429);
      expect(errorBody(blocked).errorCode).toBe('RATE_LIMITED');
      // Another address is not.
      const other = await junky.inject({
        url: '/api/tools/run/?toolId=fx-echo&a=hi',
        remoteAddress: '10.9.9.8',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await junky.close();
    }
  });
});
