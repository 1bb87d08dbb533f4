import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/helpers.js';
import { JunkCounter } from './junk.js';

describe('JunkCounter', () => {
  it('blocks a client past its limit until the window ends, and only that client', () => {
    const c = new JunkCounter(3, 10_000);
    for (let i = 0; i < 3; i++) {
      expect(c.blockedFor('a', 1000)).toBe(0);
      c.count('a', 1000);
    }
    expect(c.blockedFor('a', 1000)).toBe(10);
    expect(c.blockedFor('b', 1000)).toBe(0);
    expect(c.blockedFor('a', 11_000)).toBe(0);
  });

  it('is off at limit 0', () => {
    const c = new JunkCounter(0);
    for (let i = 0; i < 10; i++) c.count('a');
    expect(c.blockedFor('a')).toBe(0);
  });
});

describe('junk costs its sender', () => {
  it('answers 429 before reading the body once a client has sent too much junk', async () => {
    const app = await buildTestApp({ JUNK_LIMIT: '5', BODY_LIMIT_BYTES: '1024' });
    try {
      const junk = (remoteAddress: string, payload: string) =>
        app.inject({
          method: 'POST',
          url: '/api/tools/run/',
          remoteAddress,
          headers: { 'content-type': 'application/json' },
          payload,
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await junk('10.0.0.1', '{nope')).statusCode);
      for (let i = 0; i < 2; i++) statuses.push((await junk('10.0.0.1', 'x'.repeat(4096))).statusCode);
      expect(statuses).toEqual([400, 400, 400, 413, 413]);
      const blocked = await junk('10.0.0.1', 'x'.repeat(4096));
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers.connection).toBe('close');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.json()).toMatchObject({ ok: false, errorCode: 'RATE_LIMITED' });
      expect(blocked.json().error).toMatch(/refused requests/);
      // A good request from the same address is refused too; other clients and probes are not.
      const good = { toolId: 'fx-echo', a: 'hi' };
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/tools/run/',
            remoteAddress: '10.0.0.1',
            payload: good,
          })
        ).statusCode,
      ).toBe(429);
      expect(
        (
          await app.inject({
            method: 'POST',
            url: '/api/tools/run/',
            remoteAddress: '10.0.0.2',
            payload: good,
          })
        ).statusCode,
      ).toBe(200);
      expect((await app.inject({ url: '/readyz', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('does not count errors answered after the rate limiter (they are counted there)', async () => {
    const app = await buildTestApp({ JUNK_LIMIT: '2' }, true);
    try {
      // An invalid pattern is refused by the tool itself, after the limiter charged the run.
      for (let i = 0; i < 4; i++) {
        const res = await app.inject({
          url: '/api/tools/run/?toolId=regex-tester&a=(&b=x',
          remoteAddress: '10.0.0.3',
        });
        expect(res.statusCode).toBe(400);
        expect(res.headers['x-ratelimit-limit']).toBeDefined();
      }
    } finally {
      await app.close();
    }
  });
});
