import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from './server-process.js';

/**
 * A body over BODY_LIMIT_BYTES always gets its 413 ToolRunError, whatever the client
 * does while the hub refuses it (docs/api.md, "Before the limits: junk, pressure,
 * shutdown"): uploads still in flight read the answer instead of EPIPE or ECONNRESET,
 * and `Expect: 100-continue` with a declared length over the cap gets 413, never 100.
 * A real process: the races live in the kernel's sockets, not in inject().
 */
const CAP = 4 * 1024 * 1024;
const UPLOAD = 5_000_000;
const UPLOADS = 30;
const RUN = '/api/tools/run/';
const body = Buffer.alloc(UPLOAD, 0x20); // JSON whitespace: only its size is wrong

let hub: Instance | undefined;
beforeAll(async () => {
  // JUNK_LIMIT off: 60+ junk requests from one address would otherwise turn into 429.
  hub = await startInstance({ JUNK_LIMIT: '0', BODY_LIMIT_BYTES: String(CAP) });
});
afterAll(async () => {
  await stopInstance(hub);
});

interface Answer {
  status: number;
  errorCode?: string;
}

interface Upload {
  chunked?: boolean;
  path?: string;
  type?: string;
  size?: number;
}

/** node:http: writes the whole body (in 64 KiB pieces, as a client streaming a file does). */
function nodeHttpUpload(base: string, opts: Upload = {}): Promise<Answer> {
  const size = opts.size ?? UPLOAD;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': opts.type ?? 'application/json' };
    if (!opts.chunked) headers['content-length'] = size;
    const req = httpRequest(`${base}${opts.path ?? RUN}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => {
        const parsed = JSON.parse(text) as { errorCode?: string };
        resolve({ status: res.statusCode ?? 0, errorCode: parsed.errorCode });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    const piece = 64 * 1024;
    let at = 0;
    const write = () => {
      while (at < size) {
        const ok = req.write(body.subarray(at, Math.min(at + piece, size)));
        at += piece;
        if (!ok) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

async function fetchUpload(base: string, stream: boolean): Promise<Answer> {
  const init: RequestInit & { duplex?: 'half' } = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: stream ? new Blob([body]).stream() : body,
  };
  if (stream) init.duplex = 'half';
  const res = await fetch(`${base}${RUN}`, init);
  const parsed = (await res.json()) as { errorCode?: string };
  return { status: res.status, errorCode: parsed.errorCode };
}

/**
 * A raw client that sends its headers with `Expect: 100-continue` and sends the body only
 * after `100 Continue`, as curl and most HTTP libraries do; returns every status line seen.
 */
function expectContinue(base: string, payload: Buffer, declared = payload.length): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let seen = '';
    let sent = false;
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      socket.write(
        `POST ${RUN} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${declared}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
    });
    socket.on('data', (d: string) => {
      seen += d;
      if (!sent && seen.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        sent = true;
        socket.write(payload);
      }
    });
    socket.on('end', () => resolve(seen));
    socket.on('error', (err) =>
      reject(new Error(`${err.message} after: ${JSON.stringify(seen.slice(0, 300))}`)),
    );
  });
}

const errorCodeOf = (raw: string) =>
  (JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4)) as { errorCode?: string }).errorCode;

describe('bodies over the cap always get their 413', () => {
  it(`fetch: ${UPLOADS} uploads of 5 MB with a Content-Length, and ${UPLOADS / 3} streamed, each read 413 INPUT_TOO_LARGE`, async () => {
    const base = hub!.base;
    const answers: (Answer | string)[] = [];
    for (let i = 0; i < UPLOADS + UPLOADS / 3; i++) {
      answers.push(
        await fetchUpload(base, i >= UPLOADS).catch((e: Error) => `${e.message}: ${String(e.cause)}`),
      );
    }
    const expected = { status: 413, errorCode: 'INPUT_TOO_LARGE' };
    expect(answers).toEqual(answers.map(() => expected));
  }, 120_000);

  it(`node:http: ${UPLOADS} uploads of 5 MB with a Content-Length, and ${UPLOADS / 3} chunked, each read 413 INPUT_TOO_LARGE`, async () => {
    const base = hub!.base;
    const answers: (Answer | string)[] = [];
    for (let i = 0; i < UPLOADS + UPLOADS / 3; i++) {
      answers.push(await nodeHttpUpload(base, { chunked: i >= UPLOADS }).catch((e: Error) => e.message));
    }
    const expected = { status: 413, errorCode: 'INPUT_TOO_LARGE' };
    expect(answers).toEqual(answers.map(() => expected));
  }, 120_000);

  it('an unknown route with a body over the cap: 413 too, read whole', async () => {
    const answers: (Answer | string)[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(
        await nodeHttpUpload(hub!.base, { path: '/api/no-such-tool/' }).catch((e: Error) => e.message),
      );
    }
    expect(answers).toEqual(answers.map(() => ({ status: 413, errorCode: 'INPUT_TOO_LARGE' })));
  }, 60_000);

  it('a junk 429 (past JUNK_LIMIT, before the body is read) mid-upload is read too', async () => {
    let junk: Instance | undefined;
    try {
      junk = await startInstance({ JUNK_LIMIT: '1' });
      const answers: (Answer | string)[] = [];
      for (let i = 0; i < 12; i++) {
        // Under the cap: the first is refused for its content type, then the junk limiter refuses the rest.
        const upload = { type: 'text/plain', size: 3_000_000 };
        answers.push(await nodeHttpUpload(junk.base, upload).catch((e: Error) => e.message));
      }
      const refused = { status: 415, errorCode: 'INVALID_INPUT' };
      const blocked = { status: 429, errorCode: 'RATE_LIMITED' };
      expect(answers).toEqual(answers.map((_, i) => (i === 0 ? refused : blocked)));
    } finally {
      await stopInstance(junk);
    }
  }, 90_000);

  it('Expect: 100-continue with a declared length over the cap: 413 at once, never 100 Continue', async () => {
    const raw = await expectContinue(hub!.base, body);
    expect(raw).not.toContain('100 Continue');
    expect(raw).toMatch(/^HTTP\/1\.1 413 /);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(errorCodeOf(raw)).toBe('INPUT_TOO_LARGE');
  });

  it('Expect: 100-continue with a length that fits: 100 Continue, then the normal answer', async () => {
    const small = Buffer.from(JSON.stringify({ toolId: 'token-counter', a: 'Hello world', b: 'gpt-4o' }));
    const raw = await expectContinue(hub!.base, small);
    expect(raw.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 ')).toBe(true);
    expect(JSON.parse(raw.slice(raw.lastIndexOf('\r\n\r\n') + 4))).toMatchObject({ ok: true });
  });
});
