import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { isPublicAddress, resolveAllowed } from './address-guard.js';
import { webhookBackoff } from './backoff.js';
import { postWebhook, retryAfterOf } from './post.js';
import { webhookHeaders } from './sign.js';

const secret = (byte: number) => `whsec_${Buffer.alloc(32, byte).toString('base64')}`;

describe('signatures (Standard Webhooks)', () => {
  it('verify with the standardwebhooks library, one signature per secret', () => {
    const body = JSON.stringify({ type: 'job.succeeded', data: { id: 'job_x', n: 'é' } });
    const headers = webhookHeaders([secret(1), secret(2)], 'msg_job_x', body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(secret(1)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(secret(2)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret(3)).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret(1)).verify(`${body} `, headers)).toThrow();
  });

  it("match the library's own signer byte for byte", () => {
    const now = Date.UTC(2026, 10, 28, 12);
    const body = '{"a":1}';
    const ours = webhookHeaders([secret(7)], 'msg_1', body, now)['webhook-signature'];
    expect(ours).toBe(new Webhook(secret(7)).sign('msg_1', new Date(now), body));
  });
});

describe('addresses', () => {
  it('only plain public unicast is public', () => {
    for (const inner of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '::ffff:127.0.0.1',
      '2002:0a00:0001::1', // 6to4 carrying 10.0.0.1
      '192.0.2.1',
      'not an address',
    ])
      expect(isPublicAddress(inner), inner).toBe(false);
    for (const outer of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(outer), outer).toBe(true);
  });

  it('a name is judged by every address it resolves to', async () => {
    await expect(resolveAllowed('localhost', false)).rejects.toThrow(/private, loopback or link-local/);
    await expect(resolveAllowed('localhost', true)).resolves.not.toHaveLength(0);
    await expect(resolveAllowed('[::1]', false)).rejects.toThrow(/::1/);
  });
});

describe('backoff', () => {
  it('doubles from the base up to an hour, less up to half at random; Retry-After wins', () => {
    expect(webhookBackoff(1, 5000, undefined, () => 0)).toBe(5000);
    expect(webhookBackoff(3, 5000, undefined, () => 0)).toBe(20_000);
    expect(webhookBackoff(3, 5000, undefined, () => 1)).toBe(10_000);
    expect(webhookBackoff(30, 5000, undefined, () => 0)).toBe(3_600_000);
    expect(webhookBackoff(2, 5000, 1234)).toBe(1234);
    expect(webhookBackoff(2, 5000, 9e9)).toBe(3_600_000);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterOf('2')).toBe(2000);
    expect(retryAfterOf(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(50_000);
    expect(retryAfterOf('soon')).toBeUndefined();
    expect(retryAfterOf(undefined)).toBeUndefined();
  });
});

describe('one attempt', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('checks every redirect: a public first hop that redirects to loopback is refused there', async () => {
    let hits = 0;
    const port = await listen((_req, res) => {
      hits += 1;
      res.writeHead(307, { location: `http://localhost:${port}/inner` }).end();
    });
    // The first hop (127.0.0.1 by its literal) stands in for a public address; every other
    // hop gets the real check.
    const resolve: typeof resolveAllowed = (host, allow) =>
      host === '127.0.0.1' ? Promise.resolve([{ address: host, family: 4 }]) : resolveAllowed(host, allow);
    const outcome = await postWebhook(`http://127.0.0.1:${port}/hook`, {}, '{}', {
      allowPrivate: false,
      timeoutMs: 5000,
      resolve,
    });
    expect(outcome).toMatchObject({ failure: 'refused' });
    expect(outcome.error).toMatch(/localhost is 127\.0\.0\.1|::1/);
    expect(hits).toBe(1);
  });

  it('follows redirects with the same POST, and times out', async () => {
    const bodies: string[] = [];
    const port = await listen((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${body}`);
        if (req.url === '/a') res.writeHead(308, { location: '/b' }).end();
        else if (req.url === '/slow') setTimeout(() => res.end(), 2000);
        else res.writeHead(202).end();
      });
    });
    const url = `http://127.0.0.1:${port}`;
    const ok = await postWebhook(`${url}/a`, {}, '{"x":1}', { allowPrivate: true, timeoutMs: 5000 });
    expect(ok.status).toBe(202);
    expect(bodies).toEqual(['POST /a {"x":1}', 'POST /b {"x":1}']);
    const slow = await postWebhook(`${url}/slow`, {}, '{}', { allowPrivate: true, timeoutMs: 200 });
    expect(slow).toMatchObject({ failure: 'timeout' });
  });
});
