import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/config/env.js';
import { corsOrigins } from '../src/plugins/cors.js';
import { apiKeysFile, buildTestApp, type TestApp } from './helpers.js';

/** CORS_ORIGINS over real HTTP (docs/api.md, "Browser clients and CORS"). */
const ALLOWED = 'https://app.example';
const KEY = 'th_cors-key';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a real socket (Origin is a header like any other here). */
function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const preflight = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'content-type, authorization',
});

const apps: TestApp[] = [];
async function listening(env: Record<string, string>): Promise<string> {
  const app = await buildTestApp(env);
  apps.push(app);
  return app.listen({ port: 0, host: '127.0.0.1' });
}
let on: string;
let off: string;
let any: string;
beforeAll(async () => {
  const keys = await apiKeysFile([{ id: 'cors', key: KEY }]);
  on = await listening({ CORS_ORIGINS: `${ALLOWED}, http://Other.Example:8080`, API_KEYS_FILE: keys });
  off = await listening({});
  any = await listening({ CORS_ORIGINS: '*' });
});
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('CORS_ORIGINS set', () => {
  it('answers a preflight from an allowed origin before the API key check', async () => {
    const res = await send(on, 'OPTIONS', '/api/fx-echo/', preflight(ALLOWED));
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(res.headers['access-control-allow-methods']).toBe('GET, HEAD, POST');
    expect(res.headers['access-control-allow-headers']).toBe('content-type, authorization');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toContain('Origin');
  });

  it('marks the actual answer, errors included, and lets the page read the rate-limit headers', async () => {
    const headers = { origin: ALLOWED, 'content-type': 'application/json' };
    const ok = await send(
      on,
      'POST',
      '/api/fx-echo/',
      { ...headers, authorization: `Bearer ${KEY}` },
      '{"text":"hi"}',
    );
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(ok.headers['access-control-expose-headers'])).toMatch(/X-RateLimit-Remaining.*Retry-After/);
    const refused = await send(on, 'POST', '/api/fx-echo/', headers, '{"text":"hi"}');
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(ALLOWED);
    const other = await send(on, 'GET', '/healthz', { origin: 'http://other.example:8080' });
    expect(other.headers['access-control-allow-origin']).toBe('http://other.example:8080');
  });

  it('gives a disallowed origin, or none, no CORS header: its preflight is the 405 of CORS off', async () => {
    const res = await send(on, 'OPTIONS', '/api/fx-echo/', preflight('https://evil.example'));
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(JSON.parse(res.body)).toMatchObject({ ok: false, errorCode: 'TOOL_WRONG_SURFACE' });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    const get = await send(on, 'GET', '/healthz', { origin: 'https://evil.example' });
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const plain = await send(on, 'GET', '/healthz');
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('* lets any origin in, without credentials', async () => {
    const res = await send(any, 'OPTIONS', '/healthz', preflight('https://anywhere.example'));
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });
});

describe('CORS off (the default)', () => {
  it('sends no CORS header; OPTIONS is 405 with Allow on a known path, 404 elsewhere, as ToolRunErrors', async () => {
    const pre = await send(off, 'OPTIONS', '/api/fx-echo/', preflight(ALLOWED));
    expect(pre.status).toBe(405);
    expect(pre.headers.allow).toBe('GET, HEAD, POST');
    expect(JSON.parse(pre.body)).toMatchObject({ ok: false, errorCode: 'TOOL_WRONG_SURFACE' });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const unknown = await send(off, 'OPTIONS', '/api/no-such/', preflight(ALLOWED));
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    const get = await send(off, 'GET', '/healthz', { origin: ALLOWED });
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('corsOrigins', () => {
  it('reads the list as browsers write origins; empty is off', () => {
    expect(corsOrigins(undefined)).toBeNull();
    expect(corsOrigins(' ')).toBeNull();
    expect(corsOrigins('https://a.example, *')).toBe('*');
    expect([...(corsOrigins('HTTPS://A.example:443,http://b.example:8080') as Set<string>)]).toEqual([
      'https://a.example',
      'http://b.example:8080',
    ]);
  });

  it('stops the boot on a value that is no list of origins, naming it', () => {
    for (const bad of ['https://a.example/app', 'a.example', 'https://a.example;*'])
      expect(() => loadEnv({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS=/);
    expect(loadEnv({ CORS_ORIGINS: ' https://a.example , http://b:8080 ' }).CORS_ORIGINS).toBeDefined();
  });
});
