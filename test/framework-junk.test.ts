import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * Requests that reach no route's hooks still get a ToolRunError with a bounded message and
 * count as junk (docs/api.md, "Before the limits: junk, pressure, shutdown"): a path with a
 * malformed percent-escape and a path parameter past its length (fastify's frameworkErrors,
 * whose own answer repeated the whole URL), an `Expect` other than 100-continue (Node's
 * bare 417 before), and a body in a content coding (read as if plain before). A real
 * process: the Expect path lives in Node's HTTP server.
 */
let hub: Instance | undefined;
beforeAll(async () => {
  hub = await startInstance({ JUNK_LIMIT: '4' });
});
afterAll(async () => {
  await stopInstance(hub);
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { ok?: boolean; error?: string; errorCode?: string };
  bytes: number;
}

/** node:http, which sends any header as given (fetch refuses to send `Expect`). */
function send(path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${hub!.base}${path}`, { method: body ? 'POST' : 'GET', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(text),
          bytes: text.length,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('junk before any route', () => {
  const long = 'x'.repeat(15_000);

  it('a malformed percent-escape: 400 INVALID_INPUT, the path cut, a request id', async () => {
    const res = await send(`/api/%zz${long}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    expect(res.body.error).toMatch(/^the path '\/api\/%zzx+…' holds a malformed percent-escape$/);
    expect(res.bytes).toBeLessThan(400);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a path parameter past its length: 404 INVALID_INPUT, the path cut', async () => {
    const res = await send(`/api/tools/${'a'.repeat(300)}.json`);
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('INVALID_INPUT');
    expect(res.bytes).toBeLessThan(400);
  });

  it('an Expect other than 100-continue: 417 INVALID_INPUT with the value cut', async () => {
    const res = await send(
      '/api/token-counter/',
      { 'content-type': 'application/json', expect: `zzz${long}` },
      '{"text":"a"}',
    );
    expect(res.status).toBe(417);
    expect(res.body).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    expect(res.body.error).toMatch(
      /^the expectation 'zzzx+…' cannot be met: only 100-continue is understood$/,
    );
    expect(res.bytes).toBeLessThan(400);
  });

  it('a body in a content coding: 415 with Accept-Encoding: identity; identity itself is plain', async () => {
    const json = { 'content-type': 'application/json' };
    const plain = await send(
      '/api/token-counter/',
      { ...json, 'content-encoding': 'Identity' },
      '{"text":"a"}',
    );
    expect(plain.status).toBe(200);
    const gzip = await send('/api/token-counter/', { ...json, 'content-encoding': 'gzip' }, '{"text":"a"}');
    expect(gzip.status).toBe(415);
    expect(gzip.headers['accept-encoding']).toBe('identity');
    expect(gzip.body).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    expect(gzip.body.error).toBe("the content coding 'gzip' is not accepted: send the body uncompressed");
  });

  it('each counts as junk: past JUNK_LIMIT the client gets 429, health still answers', async () => {
    // Four junk requests above: the limit (4) is reached.
    for (const path of ['/api/%zz', '/api/skills-index.json']) {
      const res = await send(path);
      expect(res.status).toBe(429);
      expect(res.body.errorCode).toBe('RATE_LIMITED');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect((await send('/healthz')).status).toBe(200);
  });
});
