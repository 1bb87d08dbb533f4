import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorBody, getRun as get, policyFile, type TestApp } from '../../test/helpers.js';

/**
 * The request's Cache-Control on every HTTP door (docs/api.md, "Result cache and ETags"):
 * no-cache and Pragma: no-cache compute, no-store neither answers from nor stores, max-age and
 * min-fresh pass over entries too old or too near their end, only-if-cached answers from the
 * cache or 504 with nothing run; Cache-Status says which (`fwd=request` when a stored result was
 * declined), and a forced computation is a run like any other.
 */
let app: TestApp;
beforeAll(async () => {
  const tools = { 'fx-echo': { cacheTtlSec: 60 }, 'fx-mixed': { cacheTtlSec: 0 } };
  app = await buildTestApp({ POLICY_FILE: await policyFile({ tools }) });
});
afterAll(async () => {
  await app?.close();
});

/** A text no other case sent. */
let n = 0;
const fresh = () => `directive ${++n} ${Math.random()}`;

/** Runs of fx-echo that reached a worker (every pool run observes its queue wait). */
async function pooled(): Promise<number> {
  const text = (await app.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith('toolhub_queue_wait_seconds_count{tool="fx-echo"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

const status = (res: { headers: Record<string, unknown> }) => res.headers['cache-status'];

describe('request directives on a cached tool', () => {
  it('a plain repeat is a hit with its Age; no-cache and Pragma: no-cache compute again and store', async () => {
    const text = fresh();
    expect(status(await get(app, 'fx-echo', text))).toBe('toolhub; fwd=miss; stored; detail=memory');
    const hit = await get(app, 'fx-echo', text);
    expect(hit.json().runtime.cached).toBe(true);
    expect(status(hit)).toMatch(/^toolhub; hit; ttl=\d+; detail=memory$/);
    expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(0);
    expect(Number(hit.headers.age)).toBeLessThanOrEqual(60);
    const forcing: Record<string, string>[] = [{ 'cache-control': 'no-cache' }, { pragma: 'no-cache' }];
    for (const headers of forcing) {
      const before = await pooled();
      const forced = await get(app, 'fx-echo', text, headers);
      expect(forced.statusCode).toBe(200);
      expect(forced.json().runtime.cached).toBeUndefined();
      expect(forced.json().result).toEqual(hit.json().result);
      expect(status(forced)).toBe('toolhub; fwd=request; stored; detail=memory');
      expect(forced.headers.age).toBeUndefined();
      expect(await pooled()).toBe(before + 1);
    }
    // A miss forced by no-cache is a plain miss: there was nothing to decline.
    const other = await get(app, 'fx-echo', fresh(), { 'cache-control': 'no-cache' });
    expect(status(other)).toBe('toolhub; fwd=miss; stored; detail=memory');
  });

  it('no-store neither answers from the cache nor stores', async () => {
    const text = fresh();
    const unstored = await get(app, 'fx-echo', text, { 'cache-control': 'no-store' });
    expect(status(unstored)).toBe('toolhub; fwd=miss; detail=no-store');
    expect(status(await get(app, 'fx-echo', text))).toBe('toolhub; fwd=miss; stored; detail=memory');
    const declined = await get(app, 'fx-echo', text, { 'cache-control': 'no-store' });
    expect(declined.json().runtime.cached).toBeUndefined();
    expect(status(declined)).toBe('toolhub; fwd=request; detail=no-store');
    // The entry stored before is still there for requests without it.
    expect((await get(app, 'fx-echo', text)).json().runtime.cached).toBe(true);
  });

  it('max-age and min-fresh pass over an entry too old or too near its end', async () => {
    const text = fresh();
    await get(app, 'fx-echo', text);
    const cases: [string, boolean][] = [
      ['max-age=0', false],
      ['max-age=3600', true],
      ['min-fresh=3600', false],
      ['min-fresh=1', true],
      ['max-age=3600, min-fresh=61', false],
    ];
    for (const [directive, answered] of cases) {
      const res = await get(app, 'fx-echo', text, { 'cache-control': directive });
      expect(res.statusCode, directive).toBe(200);
      expect(res.json().runtime.cached, directive).toBe(answered ? true : undefined);
      if (!answered) expect(status(res), directive).toBe('toolhub; fwd=request; stored; detail=memory');
    }
  });

  it('only-if-cached answers from the cache, or 504 with nothing run', async () => {
    const text = fresh();
    await get(app, 'fx-echo', text);
    const cached = await get(app, 'fx-echo', text, { 'cache-control': 'only-if-cached' });
    expect(cached.statusCode).toBe(200);
    expect(cached.json().runtime.cached).toBe(true);
    const before = await pooled();
    const cases: [string, string, Record<string, string>, RegExp][] = [
      ['fx-echo', fresh(), { 'cache-control': 'only-if-cached' }, /no result is stored for this input/],
      [
        'fx-echo',
        text,
        { 'cache-control': 'only-if-cached, max-age=0' },
        /does not meet this request's max-age/,
      ],
      [
        'fx-mixed',
        'x',
        { 'cache-control': 'only-if-cached' },
        /fx-mixed keeps no results \(its cacheTtlSec is 0\)/,
      ],
    ];
    for (const [tool, input, headers, message] of cases) {
      const res = await get(app, tool, input, headers);
      expect(res.statusCode, res.body).toBe(504);
      const body = errorBody(res);
      expect(body.errorCode).toBe('TIMEOUT');
      expect(body.error).toMatch(/^only-if-cached: /);
      expect(body.error).toMatch(message);
      expect(body.runtime).toMatchObject({ toolId: tool, durationMs: 0 });
      expect(body.rateLimit).toBeDefined();
      expect(res.headers.ratelimit).toBeTruthy();
    }
    expect(await pooled()).toBe(before);
  });

  it('reads the same on the dedicated endpoint and for each run of a batch request', async () => {
    const text = fresh();
    await get(app, 'fx-echo', text);
    const dedicated = await app.inject({
      url: `/api/fx-echo/?text=${encodeURIComponent(text)}`,
      headers: { 'cache-control': 'no-cache' },
    });
    expect(dedicated.json().runtime.cached).toBeUndefined();
    expect(status(dedicated)).toBe('toolhub; fwd=request; stored; detail=memory');

    const runs = [
      { toolId: 'fx-echo', a: text },
      { toolId: 'fx-echo', a: fresh() },
    ];
    const batch = (cacheControl: string, items = runs) =>
      app.inject({
        method: 'POST',
        url: '/api/tools/batch/',
        payload: { runs: items },
        headers: { 'cache-control': cacheControl },
      });
    const forced = (await batch('no-cache')).json();
    expect(forced.results.map((r: { runtime: { cached?: boolean } }) => r.runtime.cached)).toEqual([
      undefined,
      undefined,
    ]);
    const onlyCached = await batch('only-if-cached', [runs[0]!, { toolId: 'fx-echo', a: fresh() }]);
    expect(onlyCached.statusCode).toBe(200);
    const [first, second] = onlyCached.json().results;
    expect(first.runtime.cached).toBe(true);
    expect(second).toMatchObject({ ok: false, errorCode: 'TIMEOUT' });
    expect(second.error).toMatch(/^only-if-cached: /);
  });
});

describe('a forced computation is a run', () => {
  it('takes its quota, where a hit takes none', async () => {
    const tools = { 'fx-echo': { cacheTtlSec: 60, quota: { runsPerDay: 2 } } };
    const quoted = await buildTestApp({ POLICY_FILE: await policyFile({ tools }) });
    try {
      const text = fresh();
      const plain = () => get(quoted, 'fx-echo', text);
      const forced = () => get(quoted, 'fx-echo', text, { 'cache-control': 'no-cache' });
      expect((await plain()).statusCode).toBe(200); // computed: 1 of 2
      expect((await plain()).json().runtime.cached).toBe(true); // a hit: no quota
      expect((await forced()).statusCode).toBe(200); // computed: 2 of 2
      const refused = await forced();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ errorCode: 'RATE_LIMITED', rateLimit: { scope: 'quota' } });
      // Hits are still answered once the quota is spent.
      expect((await plain()).json().runtime.cached).toBe(true);
    } finally {
      await quoted.close();
    }
  });
});
