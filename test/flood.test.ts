/**
 * A connection flood against a real process with a low descriptor limit (`ulimit -n 1024`):
 * stalled uploads are cut with a 408 ToolRunError, connections past the cap are refused
 * at accept, the process never exits, and it serves normally once the flood ends.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from './server-process.js';

const OPEN_FILES = 1024;
const FLOOD = 1100;
// Long enough that the whole flood is open at once even when a loaded machine slows the
// loop that opens it: the cap must be met before the first stalled body is cut.
const REQUEST_TIMEOUT_MS = 10_000;

interface Stalled {
  socket: Socket;
  answer: string;
  closed: Promise<void>;
}

/** Sends headers announcing a body, then one byte of it, and stalls. */
function stall(port: number): Stalled {
  const socket = connect(port, '127.0.0.1');
  const s: Stalled = { socket, answer: '', closed: Promise.resolve() };
  socket.on('error', () => {});
  socket.on('data', (d) => {
    s.answer += String(d);
  });
  s.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  socket.write(
    'POST /api/tools/run/ HTTP/1.1\r\nHost: hub\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
  );
  return s;
}

/** GET from a chosen loopback source address (another client than the flood's 127.0.0.1). */
function getFrom(url: string, localAddress: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, agent: false }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += String(d);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('connection flood under a low descriptor limit', () => {
  let hub: Instance | undefined;
  beforeAll(async () => {
    hub = await startInstance(
      { POOL_THREADS: '1', REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), LOG_LEVEL: 'warn' },
      { openFiles: OPEN_FILES },
    );
  });
  afterAll(async () => {
    await stopInstance(hub);
  });

  it('cuts stalled bodies, refuses the excess, never exits, and serves again after', async () => {
    const port = Number(new URL(hub!.base).port);
    const flood: Stalled[] = [];
    for (let i = 0; i < FLOOD; i++) {
      flood.push(stall(port));
      if (i % 100 === 99) await new Promise((r) => setTimeout(r, 20));
    }
    // Every connection ends: dropped at accept (over the cap) or cut after REQUEST_TIMEOUT_MS.
    await Promise.all(flood.map((s) => s.closed));
    expect(hub!.proc.exitCode, hub!.stderr()).toBeNull();

    const cut = flood.filter((s) => s.answer.startsWith('HTTP/1.1 408'));
    const dropped = flood.filter((s) => s.answer === '');
    expect(cut.length).toBeGreaterThan(0);
    expect(dropped.length).toBeGreaterThan(0); // the cap (3/4 of 1024) was met
    expect(cut.length + dropped.length).toBe(FLOOD);
    const body = JSON.parse(cut[0]!.answer.slice(cut[0]!.answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ ok: false, errorCode: 'TIMEOUT' });
    expect(body.error).toContain(`${REQUEST_TIMEOUT_MS} ms`);
    expect(hub!.stdout()).toContain('refusing connections');

    // Another client is served at once; the flooder's 408s counted as refusals against it.
    expect((await getFrom(`${hub!.base}/healthz`, '127.0.0.2')).status).toBe(200);
    const run = await getFrom(`${hub!.base}/api/tools/run/?toolId=token-counter&a=hello`, '127.0.0.2');
    expect(run.status, run.body).toBe(200);
    const flooder = await getFrom(`${hub!.base}/api/tools/run/?toolId=token-counter&a=hello`, '127.0.0.1');
    expect(flooder.status).toBe(429);
    expect(JSON.parse(flooder.body)).toMatchObject({ errorCode: 'RATE_LIMITED' });
    expect(hub!.proc.exitCode).toBeNull();
  }, 90_000);
});
