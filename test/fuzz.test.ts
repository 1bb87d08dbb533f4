import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExamples } from '../src/docs/examples.js';
import { ERROR_CODES } from '../src/errors.js';
import { scanTools } from '../src/registry.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';

/**
 * Property-based hostile input on every route: whatever arrives, the answer is 2xx or a
 * conforming ToolRunError with an allowed code, never a stack trace, and no prototype
 * is polluted. The process surviving the whole run is part of the property.
 */
let app: TestApp;
let routes: { method: 'GET' | 'POST'; url: string }[];
beforeAll(async () => {
  const tools = [...(await scanTools()).keys()];
  const file = await policyFile({
    tools: Object.fromEntries(tools.map((t) => [t, { limit: 1_000_000, timeoutMs: 1500 }])),
  });
  app = await buildTestApp({ POLICY_FILE: file, BODY_LIMIT_BYTES: '65536' }, true);
  routes = [
    { method: 'GET', url: '/api/tools/run/' },
    { method: 'POST', url: '/api/tools/run/' },
    ...[...app.tools.values()].flatMap(({ def }) =>
      def.endpoints.flatMap((ep) => ep.methods.map((method) => ({ method, url: ep.path }))),
    ),
    { method: 'GET', url: '/api/skills-index.json' },
    { method: 'GET', url: '/api/tools/token-counter.json' },
    { method: 'GET', url: '/healthz' },
  ];
});
afterAll(async () => {
  await app.close();
});

const protoKeys = Object.getOwnPropertyNames(Object.prototype).sort();

function checkAnswer(res: { statusCode: number; body: string; headers: Record<string, unknown> }): void {
  expect(res.body).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(res.body).not.toMatch(/node_modules|\/work\/|file:\/\//);
  if (res.statusCode >= 200 && res.statusCode < 300) return;
  if (res.statusCode === 304) return;
  const body = JSON.parse(res.body);
  expect(body.ok).toBe(false);
  expect(typeof body.error).toBe('string');
  expect(ERROR_CODES).toContain(body.errorCode);
  expect([400, 404, 405, 413, 415, 429, 500, 503, 504]).toContain(res.statusCode);
  // A 500 is a bug in a tool: a fuzzer must never find one.
  expect(res.statusCode, res.body).not.toBe(500);
}

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '__proto__',
    'constructor',
    'prototype',
    '\u0000',
    '\ud800',
    'a'.repeat(70_000),
    '{"__proto__":{"x":1}}',
  ),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);
const nastyValue = fc.oneof(
  nasty,
  fc.jsonValue({ maxDepth: 6 }),
  fc.constantFrom(1e308, -0, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, null, true, [], {}),
  fc.constant(JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}')),
);
const fieldName = fc.oneof(
  fc.constantFrom(
    'toolId',
    'a',
    'b',
    'c',
    'mode',
    'source',
    'input',
    '__proto__',
    'constructor',
    'text',
    'pattern',
    'data',
  ),
  fc.string({ maxLength: 12 }),
);
const body = fc.oneof(
  fc.dictionary(fieldName, nastyValue, { maxKeys: 6 }),
  fc.record({
    toolId: fc.constantFrom('token-counter', 'regex-tester', 'qr-code', 'nope'),
    input: fc.dictionary(fieldName, nastyValue, { maxKeys: 5 }),
  }),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('fuzzing every route', () => {
  it('JSON bodies and query strings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        body,
        fc.dictionary(fieldName, nasty, { maxKeys: 5 }),
        async (pick, payload, query) => {
          const route = routes[pick % routes.length]!;
          const qs = new URLSearchParams(
            Object.entries(query).map(([k, v]): [string, string] => [k, v]),
          ).toString();
          const res = await app.inject({
            method: route.method,
            url: `${route.url}?${qs}`,
            ...(route.method === 'POST'
              ? { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } }
              : {}),
          });
          checkAnswer(res);
        },
      ),
      { numRuns: 250 },
    );
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoKeys);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('every tool with random generic input and real modes', async () => {
    const toolCase = fc.constantFrom(...[...app.tools.values()].map(({ def }) => def)).chain((def) =>
      fc.record({
        toolId: fc.constant(def.id),
        input: fc.record(
          {
            a: nasty,
            b: nasty,
            c: nasty,
            mode: fc.oneof(fc.constantFrom(...def.modes), fc.string({ maxLength: 8 })),
          },
          { requiredKeys: ['a'] },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(toolCase, async (payload) => {
        checkAnswer(await app.inject({ method: 'POST', url: '/api/tools/run/', payload }));
      }),
      { numRuns: 400 },
    );
  });

  it('every dedicated endpoint with random named fields', async () => {
    const endpointCase = fc
      .constantFrom(...[...app.tools.values()].flatMap(({ def }) => def.endpoints.map((ep) => ({ def, ep }))))
      .chain(({ def, ep }) => {
        const names = [
          ...Object.keys(def.input.properties as object),
          ...(def.modeField ? [def.modeField] : []),
        ];
        return fc.record({
          path: fc.constant(ep.path),
          fields: fc.dictionary(fc.constantFrom(...names), nastyValue, { maxKeys: names.length }),
        });
      });
    await fc.assert(
      fc.asyncProperty(endpointCase, async ({ path, fields }) => {
        checkAnswer(await app.inject({ method: 'POST', url: path, payload: fields as object }));
      }),
      { numRuns: 400 },
    );
  });

  it('raw bytes, invalid UTF-8, deep nesting and wrong content types', async () => {
    const rawBody = fc.oneof(
      fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
      fc.nat({ max: 20_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)),
      fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      '',
      'application/xml',
    );
    await fc.assert(
      fc.asyncProperty(fc.nat(), rawBody, contentType, async (pick, payload, type) => {
        const route = routes.filter((r) => r.method === 'POST')[pick % 10]!;
        const res = await app.inject({
          method: 'POST',
          url: route.url,
          payload,
          headers: type ? { 'content-type': type } : {},
        });
        checkAnswer(res);
        expect(res.statusCode).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it('hostile headers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom('x-request-id', 'x-forwarded-for', 'if-none-match', 'accept', 'content-length-x'),
          fc.string({ maxLength: 300 }),
        ),
        async (headers) => {
          const clean = Object.fromEntries(
            Object.entries(headers).filter(([, v]) => /^[\t\x20-\x7e]*$/.test(v)),
          );
          checkAnswer(await app.inject({ url: '/api/tools/run/?toolId=qr-code&a=x', headers: clean }));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('lone surrogates in every slot of every tool, starting from its working example', async () => {
    // Deterministic companion of the random cases: each tool's basic example reaches its
    // real code path, and one slot at a time carries text with no UTF-8 form.
    for (const { def, docsDir } of app.tools.values()) {
      const input = readExamples(docsDir).basic.input as Record<string, string | undefined>;
      for (const slot of ['a', 'b', 'c'] as const) {
        for (const value of ['\ud800', `${input[slot] ?? ''}\udfff`, `\ud83d${input[slot] ?? ''}`]) {
          const payload = { toolId: def.id, input: { ...input, [slot]: value } };
          checkAnswer(await app.inject({ method: 'POST', url: '/api/tools/run/', payload }));
        }
      }
    }
  });

  it('refuses a chunked body past the cap with 413', async () => {
    const chunks = Array.from({ length: 200 }, () => Buffer.alloc(1024, 0x61));
    const res = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      payload: Readable.from([Buffer.from('{"toolId":"token-counter","a":"'), ...chunks, Buffer.from('"}')]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().errorCode).toBe('INPUT_TOO_LARGE');
  });
});
