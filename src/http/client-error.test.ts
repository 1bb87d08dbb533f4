import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';

/** Writes raw bytes to the listening app and returns everything it answers until close. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += String(d);
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer));
    socket.end(bytes);
  });
}

function parse(answer: string): { status: number; headers: string; body: Record<string, unknown> } {
  const split = answer.indexOf('\r\n\r\n');
  return {
    status: Number(answer.slice(9, 12)),
    headers: answer.slice(0, split),
    body: JSON.parse(answer.slice(split + 4)),
  };
}

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await buildTestApp({ JUNK_LIMIT: '1000' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app.close();
});

describe('requests refused by the HTTP parser are ToolRunErrors', () => {
  it.each([
    ['a bad method token', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'INVALID_INPUT', /method/],
    [
      'an obs-fold header',
      'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n  folded\r\n\r\n',
      400,
      'INVALID_INPUT',
      /header/,
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/tools/run/ HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'INVALID_INPUT',
      /Content-Length|Transfer-Encoding/,
    ],
    ['a bare LF', 'GET /healthz HTTP/1.1\nHost: x\n\n', 400, 'INVALID_INPUT', /./],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'INVALID_INPUT', /HTTP\/2/],
    [
      'headers over the limit',
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'INPUT_TOO_LARGE',
      /headers/,
    ],
  ])('%s', async (_name, bytes, status, errorCode, message) => {
    const answer = parse(await raw(port, bytes));
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatch(/content-type: application\/json/i);
    expect(answer.body).toMatchObject({ ok: false, errorCode });
    expect(answer.body.error).toMatch(message);
    expect(Object.keys(answer.body).sort()).toEqual(['error', 'errorCode', 'ok']);
  });

  it('still serves well-formed requests on the same server', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
  });
});
