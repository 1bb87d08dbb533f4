import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

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
