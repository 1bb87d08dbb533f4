import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/http/json-depth.js';
import { buildTestApp, errorBody, type TestApp } from './helpers.js';

let app: TestApp;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(async () => {
  await app.close();
});

const run = (payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/tools/run/', payload: payload as object });

describe('generic runtime /api/tools/run/', () => {
  it('runs the nested shape, mapping a/b/c/mode onto named fields', async () => {
    const res = await run({
      toolId: 'fx-echo',
      source: 'mcp',
      input: { a: 'hi', b: '!', c: '2', mode: 'upper' },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.result).toEqual({
      text: 'HIHI!',
      mode: 'upper',
      input: { text: 'hi', suffix: '!', repeat: 2 },
    });
    expect(body.runtime).toMatchObject({
      toolId: 'fx-echo',
      source: 'mcp',
      surface: 'runtime',
      timeoutMs: 300,
    });
    expect(typeof body.runtime.durationMs).toBe('number');
    expect(typeof body.runtime.queuedMs).toBe('number');
    expect(body.runtime.requestId).toBe(res.headers['x-request-id']);
  });

  it('accepts the flat shape and GET with the same result', async () => {
    const flat = await run({ toolId: 'fx-echo', a: 'hi', mode: 'UPPER' });
    const get = await app.inject({ url: '/api/tools/run?toolId=fx-echo&a=hi&mode=upper' });
    expect(flat.json().result).toEqual(get.json().result);
    expect(get.json().result.text).toBe('HI');
    expect(get.json().runtime.source).toBe('api');
  });

  it('takes numbers as text and the default mode when none is given', async () => {
    const res = await run({ toolId: 'fx-echo', input: { a: 42, c: 3 } });
    expect(res.json().result).toMatchObject({ text: '424242', mode: 'plain' });
  });

  it('reads an empty slot of a number field as not given, and keeps empty text', async () => {
    // c is fx-echo's integer `repeat`, b its text `suffix`: `?c=` gets the default, `b=""` stays "".
    const get = await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=hi&b=&c=' });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json().result.input).toEqual({ text: 'hi', suffix: '', repeat: 1 });
    const dedicated = await app.inject({ url: '/api/fx-echo/?text=hi&repeat=' });
    expect(dedicated.json().result.input).toEqual({ text: 'hi', repeat: 1 });
  });

  it('refuses a JSON body nested deeper than the bound with INVALID_INPUT, not a crash', async () => {
    const nested = (levels: number) =>
      app.inject({
        method: 'POST',
        url: '/api/tools/run/',
        payload: `{"toolId":"fx-echo","a":"x","b":${'['.repeat(levels)}${']'.repeat(levels)}}`,
        headers: { 'content-type': 'application/json' },
      });
    const res = await nested(5000);
    expect(res.statusCode).toBe(400);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_INPUT' });
    expect(errorBody(res).error).toContain(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    // Exactly at the bound (the body's object is one level): it reaches the tool's own checks.
    const within = await nested(MAX_JSON_DEPTH - 1);
    expect(within.statusCode).toBe(400);
    expect(errorBody(within).error).toMatch(/suffix/);
  });

  it.each([
    ['{"toolId":"fx-echo","a":1e400}', 'a'],
    ['{"toolId":"fx-echo","input":{"a":"x","b":[1,{"n":-1e999}]}}', 'b'],
  ])('refuses a number past a double (%s) rather than sending Infinity or null', async (payload, key) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res)).toMatchObject({ errorCode: 'INVALID_INPUT' });
    expect(errorBody(res).error).toBe(
      `${key} holds a number past a double's range (such as 1e400), which has no JSON text: send ${key} as a string`,
    );
  });

  it.each([
    [{ input: { a: 'x' } }, /toolId is required/],
    [{ toolId: 'nope', a: 'x' }, /unknown toolId 'nope'; known: .*fx-echo/],
    [{ toolId: 'fx-echo' }, /'a' is required/],
    [
      { toolId: 'fx-echo', a: 'x', source: 'carrier-pigeon' },
      /source must be one of: web, api, mcp, direct_framework/,
    ],
    [{ toolId: 'fx-echo', a: 'x', input: { a: 'y' } }, /'a' given both/],
    [{ toolId: 'fx-echo', input: { a: 'x', z: 1 } }, /unknown field 'input.z'/],
    [{ toolId: 'fx-echo', a: 'x', extra: 1 }, /unknown field 'extra'/],
    [{ toolId: 'fx-echo', input: 'x' }, /input must be object/],
    [['fx-echo'], /must be a JSON object/],
    [{ toolId: 'fx-echo', a: 'x', c: 'lots' }, /repeat \(generic: c\) must be integer/],
    [{ toolId: 'fx-echo', a: 'bad' }, /text must not be "bad"/],
  ])('refuses %j with INVALID_INPUT', async (payload, message) => {
    const res = await run(payload);
    expect(res.statusCode).toBe(400);
    const body = errorBody(res);
    expect(body.errorCode).toBe('INVALID_INPUT');
    expect(body.error).toMatch(message);
  });

  it('refuses an unknown mode with UNSUPPORTED_OPTION listing the supported ones', async () => {
    const res = await run({ toolId: 'fx-echo', a: 'x', mode: 'sideways' });
    expect(res.statusCode).toBe(400);
    const body = errorBody(res);
    expect(body.errorCode).toBe('UNSUPPORTED_OPTION');
    expect(body.error).toContain('supported: plain, upper');
  });

  it('refuses a repeated query parameter', async () => {
    const res = await app.inject({ url: '/api/tools/run?toolId=fx-echo&a=1&a=2' });
    expect(errorBody(res).error).toMatch(/given more than once/);
  });
});

describe('options: the named fields no slot carries (docs/api.md, "Options")', () => {
  const echoed = (res: { json: () => { result: { input: Record<string, unknown> } } }) =>
    res.json().result.input;

  it('reach the tool from the nested and flat bodies, GET (as JSON text) and a batch item', async () => {
    const nested = await run({ toolId: 'fx-echo', input: { a: 'hi', options: { level: 'H' } } });
    expect(nested.statusCode, nested.body).toBe(200);
    expect(echoed(nested)).toEqual({ text: 'hi', repeat: 1, level: 'H' });
    const flat = await run({ toolId: 'fx-echo', a: 'hi', options: '{"level":"M"}' });
    expect(echoed(flat)).toMatchObject({ level: 'M' });
    const get = await app.inject({
      method: 'GET',
      url: `/api/tools/run/?toolId=fx-echo&a=hi&options=${encodeURIComponent('{"level":"L"}')}`,
    });
    expect(echoed(get)).toMatchObject({ level: 'L' });
    const batch = await app.inject({
      method: 'POST',
      url: '/api/tools/batch/',
      payload: { runs: [{ toolId: 'fx-echo', input: { a: 'hi', options: { level: 'H' } } }] },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json().results[0].result.input).toMatchObject({ level: 'H' });
  });

  it('are checked by the tool schema like any field: a bad value, an unknown name, __proto__', async () => {
    const bad = await run({ toolId: 'fx-echo', input: { a: 'hi', options: { level: 'X' } } });
    expect(bad.json().errorCode).toBe('UNSUPPORTED_OPTION');
    const unknown = await run({ toolId: 'fx-echo', input: { a: 'hi', options: { colour: 'red' } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errorCode: 'INVALID_INPUT' });
    expect(unknown.json().error).toContain('colour');
    const proto = await run({
      toolId: 'fx-echo',
      input: { a: 'hi', options: JSON.parse('{"__proto__":{"x":1}}') },
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().errorCode).toBe('INVALID_INPUT');
  });

  it('refuse a field a slot carries, the mode, junk JSON and non-objects, each with a clear message', async () => {
    const cases: Array<[unknown, string]> = [
      [{ a: 'hi', options: { suffix: '!' } }, "'suffix' is b here, give it as b"],
      [{ a: 'hi', options: { mode: 'upper' } }, 'give the mode as mode'],
      [{ a: 'hi', options: '{level' }, 'not valid JSON'],
      [{ a: 'hi', options: '[1]' }, 'options must be a JSON object'],
    ];
    for (const [input, message] of cases) {
      const res = await run({ toolId: 'fx-echo', input });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errorCode).toBe('INVALID_INPUT');
      expect(res.json().error).toContain(message);
    }
    const mixed = await run({ toolId: 'fx-echo', options: {}, input: { a: 'hi' } });
    expect(mixed.json().error).toContain("'options' given both");
  });

  it('count toward inputMaxBytes', async () => {
    const small = await run({ toolId: 'fx-echo', input: { a: 'hi', options: { level: 'H' } } });
    expect(small.statusCode).toBe(200);
    const big = await run({ toolId: 'fx-echo', input: { a: 'hi', options: { level: 'H'.repeat(100_000) } } });
    expect(big.statusCode).toBe(413);
    expect(big.json().errorCode).toBe('INPUT_TOO_LARGE');
  });
});

describe('dedicated endpoints', () => {
  it('give the same result as the runtime for the same input, on GET and POST', async () => {
    const generic = await run({ toolId: 'fx-echo', input: { a: 'yo', b: '?', c: '3', mode: 'upper' } });
    const post = await app.inject({
      method: 'POST',
      url: '/api/fx-echo/',
      payload: { text: 'yo', suffix: '?', repeat: 3, mode: 'upper' },
    });
    const get = await app.inject({ url: '/api/fx-echo?text=yo&suffix=%3F&repeat=3&mode=upper' });
    expect(post.json().result).toEqual(generic.json().result);
    expect(get.json().result).toEqual(generic.json().result);
    expect(post.json().runtime.surface).toBe('dedicated');
  });

  it('reports an option outside its enum as UNSUPPORTED_OPTION', async () => {
    const res = await app.inject({ url: '/api/fx-echo/?text=a&level=Z' });
    const body = errorBody(res);
    expect(body.errorCode).toBe('UNSUPPORTED_OPTION');
    expect(body.error).toContain('L, M, H');
  });

  it('refuses unknown fields, naming the known ones', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/fx-echo/',
      payload: { text: 'a', colour: 'red' },
    });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res).error).toMatch(
      /unknown field 'colour'; fields of fx-echo: text, suffix, repeat, level, mode/,
    );
  });

  it('answers GET on a POST-only endpoint with 405, Allow and TOOL_WRONG_SURFACE', async () => {
    const res = await app.inject({ url: '/api/fx-sleep/?text=1' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(errorBody(res).errorCode).toBe('TOOL_WRONG_SURFACE');
  });
});

describe('input size', () => {
  it('answers input over inputMaxBytes with 413 INPUT_TOO_LARGE, counting UTF-8 bytes', async () => {
    // 1366 × 3-byte characters = 4098 bytes > 4096, though only 1366 UTF-16 units.
    const res = await run({ toolId: 'fx-echo', a: '€'.repeat(1366) });
    expect(res.statusCode).toBe(413);
    const body = errorBody(res);
    expect(body.errorCode).toBe('INPUT_TOO_LARGE');
    expect(body.error).toContain('at most 4096');
  });

  it('answers a body over the hard cap with 413 INPUT_TOO_LARGE', async () => {
    const small = await buildTestApp({ BODY_LIMIT_BYTES: '2048' });
    try {
      const res = await small.inject({
        method: 'POST',
        url: '/api/tools/run/',
        payload: { toolId: 'fx-echo', a: 'x'.repeat(5000) },
      });
      expect(res.statusCode).toBe(413);
      expect(errorBody(res).errorCode).toBe('INPUT_TOO_LARGE');
    } finally {
      await small.close();
    }
  });
});

describe('every non-2xx under /api/ is a ToolRunError', () => {
  it.each([
    ['GET', '/api/nothing-here', undefined, undefined, 404, 'INVALID_INPUT'],
    ['DELETE', '/api/tools/run/', undefined, undefined, 405, 'TOOL_WRONG_SURFACE'],
    ['POST', '/api/tools/run/', '{"toolId":', 'application/json', 400, 'INVALID_INPUT'],
    ['POST', '/api/tools/run/', 'toolId=fx-echo', 'application/x-www-form-urlencoded', 415, 'INVALID_INPUT'],
    ['POST', '/api/tools/run/', 'hello', 'text/plain', 415, 'INVALID_INPUT'],
    [
      'POST',
      '/api/tools/run/',
      '{"__proto__":{"x":1},"toolId":"fx-echo","a":"1"}',
      'application/json',
      400,
      'INVALID_INPUT',
    ],
    ['POST', '/api/tools/run/', '', 'application/json', 400, 'INVALID_INPUT'],
  ])('%s %s (%s) → %i %s', async (method, url, payload, type, status, code) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      ...(payload !== undefined ? { payload } : {}),
      ...(type ? { headers: { 'content-type': type } } : {}),
    });
    expect(res.statusCode).toBe(status);
    expect(errorBody(res).errorCode).toBe(code);
    if (status === 405) expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('request ids', () => {
  it('honours and echoes a well-formed x-request-id', async () => {
    const res = await app.inject({
      url: '/api/tools/run?toolId=fx-echo&a=1',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
    expect(res.json().runtime.requestId).toBe('abc-123');
  });

  it('replaces a malformed one', async () => {
    const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'bad id <script>' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
