import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { MAX_JSON_DEPTH } from '../http/json-depth.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const post = (payload: string) =>
  app.inject({
    method: 'POST',
    url: '/api/tools/run/',
    headers: { 'content-type': 'application/json' },
    payload,
  });

describe('JSON bodies with __proto__ and constructor keys', () => {
  it('keeps them as data inside values: the tool sees exactly the JSON that was sent', async () => {
    const res = await post(
      '{"toolId":"fx-echo","input":{"a":{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}}}',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.json().result.text)).toEqual(
      JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}'),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['{"__proto__":{"polluted":1},"toolId":"fx-echo","a":"hi"}', "unknown field '__proto__'"],
    [
      '{"constructor":{"prototype":{"polluted":1}},"toolId":"fx-echo","a":"hi"}',
      "unknown field 'constructor'",
    ],
    ['{"toolId":"fx-echo","input":{"a":"hi","__proto__":1}}', "unknown field 'input.__proto__'"],
  ])('refuses them as unknown fields at the top of a body, saying which: %s', async (payload, message) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT', error: message });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the JSON depth bound over HTTP', () => {
  let hub: TestApp;
  let base: string;
  beforeAll(async () => {
    hub = await buildTestApp({ JUNK_LIMIT: '3' });
    base = await hub.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await hub?.close();
  });

  const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
  const send = (path: string, body: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const batch = (levels: number) => `{"runs":[{"toolId":"fx-echo","a":${arrays(levels)}}]}`;

  it('refuses a deep body on every door with 400 INVALID_INPUT, counted as junk', async () => {
    // Exactly at the bound (three levels of envelope): the run is made.
    const within = await send('/api/tools/batch/', batch(MAX_JSON_DEPTH - 3));
    expect(within.status).toBe(200);
    expect(((await within.json()) as { results: { ok: boolean }[] }).results[0]?.ok).toBe(true);

    const refused = [
      await send('/api/tools/batch/', batch(MAX_JSON_DEPTH - 2)),
      await send('/api/fx-echo/', `{"text":${arrays(5000)}}`),
      await send('/api/tools/run/', `{"toolId":"fx-echo","a":"x","b":${arrays(5000)}}`),
    ];
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        ok: false,
        errorCode: 'INVALID_INPUT',
        error: `the JSON body nests deeper than ${MAX_JSON_DEPTH} levels`,
      });
    }
    // JUNK_LIMIT 3 reached: the address is blocked, a good request included.
    const blocked = await fetch(`${base}/api/tools/run/?toolId=fx-echo&a=hi`);
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { errorCode: string }).errorCode).toBe('RATE_LIMITED');
  });
});
