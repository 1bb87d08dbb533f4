/**
 * Memory admission over real sockets (docs/operations.md, "Memory admission"): a request
 * reserves before its body is read, is refused with CONCURRENCY_LIMIT and Retry-After when
 * its client's share (429) or the instance's budget (503) is in use, and gives its
 * reservation back however it ends: answered, cut mid-body, or left mid-run.
 */
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REQUEST_EXPANSION } from '../src/http/memory-budget.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';

/** What a body of 1,000 bytes reserves. */
const UNIT = 1000 * REQUEST_EXPANSION;

let app: TestApp;
let port: number;
let closedSockets = 0;
beforeAll(async () => {
  const file = await policyFile({ tools: { 'fx-sleep': { timeoutMs: 20_000 } } });
  app = await buildTestApp({
    POLICY_FILE: file,
    // In bodies of 1,000 bytes: a client may hold 1.7 of them, the instance 3.4.
    MEMORY_BUDGET_BYTES: String(Math.floor(3.4 * UNIT)),
    MEMORY_CLIENT_SHARE: '0.5',
    TRUST_PROXY: 'true',
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  app.server.on('connection', (socket) => socket.once('close', () => closedSockets++));
});
afterAll(async () => {
  await app.close();
});

const budget = () => app.memoryBudget!;
const waitFor = (check: () => void) => vi.waitFor(check, { timeout: 20_000, interval: 20 });

interface Upload {
  req: ClientRequest;
  answer: Promise<{ res: IncomingMessage; body: Record<string, unknown> }>;
}

/** A POST that declares `length` bytes from `client` and sends only `sent` of them. */
function upload(client: string, length: number, sent: string): Upload {
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/api/tools/run/',
    headers: { 'content-type': 'application/json', 'content-length': length, 'x-forwarded-for': client },
  });
  req.on('error', () => {}); // destroyed on purpose
  const answer = new Promise<{ res: IncomingMessage; body: Record<string, unknown> }>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ res, body: JSON.parse(text) }));
    });
  });
  req.flushHeaders();
  req.write(sent);
  return { req, answer };
}

describe('memory admission of requests', () => {
  it('refuses before the body: 429 for the client share, 503 for the instance, then all back to 0 when cut mid-body', async () => {
    const a = upload('10.0.0.1', 1000, '{"toolId":');
    await waitFor(() => expect(budget().held('request')).toBe(UNIT));

    // One body held of the client's 1.7: a second one does not fit.
    const again = upload('10.0.0.1', 1000, '');
    const refused = await again.answer;
    expect(refused.res.statusCode).toBe(429);
    expect(refused.res.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({ errorCode: 'CONCURRENCY_LIMIT' });
    expect(refused.body.error).toMatch(/this client's requests in flight hold/);
    again.req.destroy();

    const b = upload('10.0.0.2', 1500, '{');
    await waitFor(() => expect(budget().held('request')).toBe(2.5 * UNIT));
    // 2.5 bodies held of the instance's 3.4: one more does not fit, whoever asks.
    const full = upload('10.0.0.3', 1000, '');
    const busy = await full.answer;
    expect(busy.res.statusCode).toBe(503);
    expect(busy.res.headers['retry-after']).toBe('2');
    expect(busy.body).toMatchObject({ errorCode: 'CONCURRENCY_LIMIT' });
    full.req.destroy();

    a.req.destroy();
    b.req.destroy();
    await waitFor(() => {
      expect(budget().held()).toBe(0);
      expect(budget().holders).toBe(0);
    });
  });

  it('gives the reservation back when the answer is written', async () => {
    const body = JSON.stringify({ toolId: 'fx-echo', a: 'hello' });
    const done = upload('10.0.0.4', Buffer.byteLength(body), body);
    done.req.end();
    const { res, body: answer } = await done.answer;
    expect(res.statusCode).toBe(200);
    expect(answer).toMatchObject({ ok: true });
    await waitFor(() => expect(budget().held()).toBe(0));
  });

  it('holds the reservation of a client that left mid-run until the run ends, then gives it back', async () => {
    const body = JSON.stringify({ toolId: 'fx-sleep', a: '2000' });
    const left = upload('10.0.0.5', Buffer.byteLength(body), body);
    left.req.end();
    await waitFor(() => expect(app.pool.stats().inUse).toBeGreaterThan(0));
    const closedBefore = closedSockets;
    left.req.destroy();
    await waitFor(() => expect(closedSockets).toBeGreaterThan(closedBefore));
    // The server has seen the client go; while the run is still in the pool its memory is held.
    const inPool = app.pool.stats().inUse > 0;
    const held = budget().held('request');
    expect(!inPool || held > 0, `run in pool: ${inPool}, held: ${held}`).toBe(true);
    await waitFor(() => {
      expect(app.pool.stats().inUse).toBe(0);
      expect(budget().held()).toBe(0);
      expect(budget().holders).toBe(0);
    });
  });
});
