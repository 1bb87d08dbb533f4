import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * A malformed Host on a real server (docs/api.md, "Before the limits: junk, pressure,
 * shutdown"). Raw sockets: fetch and node:http will not send most of these Host values.
 */
interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function raw(base: string, request: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n', 2);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    // Not end(): a half-closed socket may be dropped before a slower answer is written; the
    // server closes it after answering (Connection: close, or HTTP/1.0).
    socket.write(request);
  });
}

const get = (path: string, hostLines: string[], version = '1.1') =>
  `GET ${path} HTTP/${version}\r\n${hostLines.map((h) => `Host: ${h}\r\n`).join('')}Connection: close\r\n\r\n`;
const postMcp = (host: string) =>
  `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
  'Accept: application/json, text/event-stream\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';

const MALFORMED = ['x@127.0.0.1', 'a b', '127.0.0.1:99999', 'localhost:abc', '', '[::1', 'a/b', 'exämple'];

let hub: Instance;
let strict: Instance;
beforeAll(async () => {
  [hub, strict] = await Promise.all([startInstance({ JUNK_LIMIT: '0' }), startInstance({ JUNK_LIMIT: '3' })]);
});
afterAll(async () => {
  await Promise.all([stopInstance(hub), stopInstance(strict)]);
});

function expectRefused(answer: RawAnswer, what: string): void {
  expect(answer.status, what).toBe(400);
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
}

describe('a malformed Host header', () => {
  it('is 400 INVALID_INPUT on every route, /mcp included, with nothing logged at error level', async () => {
    for (const host of MALFORMED) {
      expectRefused(await raw(hub.base, postMcp(host)), `/mcp ${host}`);
      for (const path of ['/api/tools/run/?toolId=qr-code&a=x', '/healthz', '/metrics', '/docs', '/nope']) {
        expectRefused(await raw(hub.base, get(path, [host])), `${path} ${host}`);
      }
    }
    const answer = await raw(hub.base, get('/healthz', ['x@127.0.0.1']));
    expect(JSON.parse(answer.body).error).toBe(
      "the Host header 'x@127.0.0.1' is not a host[:port] (RFC 9110, section 7.2)",
    );
    // pino writes numeric levels: 50 is error, 60 fatal.
    expect(hub.stdout()).not.toMatch(/"level":(50|60)/);
  });

  it('is refused when missing on HTTP/1.1 or sent twice; HTTP/1.0 without one still works', async () => {
    expectRefused(await raw(hub.base, get('/healthz', [])), 'HTTP/1.1 without Host');
    expectRefused(await raw(hub.base, get('/healthz', ['127.0.0.1', 'evil.example'])), 'two Host lines');
    for (const path of ['/healthz', '/api/tools/run/?toolId=qr-code&a=x']) {
      expect((await raw(hub.base, get(path, [], '1.0'))).status, path).toBe(200);
    }
  });

  it('lets well-formed hosts through: names, addresses, [IPv6], with a port', async () => {
    const { port } = new URL(hub.base);
    for (const host of ['localhost', `127.0.0.1:${port}`, `[::1]:${port}`, 'hub.example.com:443']) {
      expect((await raw(hub.base, get('/healthz', [host]))).status, host).toBe(200);
    }
  });

  it('counts as junk: past JUNK_LIMIT the address is answered 429, health still answers', async () => {
    for (let i = 0; i < 3; i++) expectRefused(await raw(strict.base, postMcp('x@127.0.0.1')), `refusal ${i}`);
    const { port } = new URL(strict.base);
    const blocked = await raw(strict.base, get('/api/tools/run/?toolId=qr-code&a=x', [`127.0.0.1:${port}`]));
    expect(blocked.status).toBe(429);
    expect(JSON.parse(blocked.body).errorCode).toBe('RATE_LIMITED');
    expect((await raw(strict.base, get('/healthz', [`127.0.0.1:${port}`]))).status).toBe(200);
  });
});
