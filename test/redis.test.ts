import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  errorBody,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';
import { PrivateRedis } from './private-redis.js';

beforeAll(async () => {
  await requireRedis();
});

const get = (a: TestApp, text: string, headers: Record<string, string> = {}) =>
  a.inject({ url: `/api/tools/run?toolId=fx-echo&a=${text}`, headers });

describe('limits on the shared Redis', () => {
  it('keeps its counters in Redis under its own prefix and allows exactly limit + burst', async () => {
    const prefix = redisPrefix();
    const file = await policyFile({ tools: { 'fx-echo': { limit: 4, burst: 2 } } });
    const app = await buildTestApp({ REDIS_URL, REDIS_PREFIX: prefix, POLICY_FILE: file });
    const redis = new Redis(REDIS_URL);
    try {
      const statuses = [];
      for (let i = 0; i < 8; i++) statuses.push((await get(app, String(i))).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      const keys = await redis.keys(`${prefix}*`);
      // One key per client and tool holds the rate, burst and budget counters.
      const [key] = keys.filter((k) => k.startsWith(`${prefix}lim:{`) && k.endsWith('}:fx-echo'));
      expect(Object.keys(await redis.hgetall(key!))).toEqual(
        expect.arrayContaining(['c', 'e', 'b', 'f', 'u', 'v']),
      );
      const ready = (await app.inject({ url: '/readyz' })).json();
      expect(ready).toMatchObject({ ok: true, status: 'ready', limiterStore: 'redis' });
    } finally {
      redis.disconnect();
      await app.close();
    }
  });

  it('shares one bucket, one budget and one per-client cap between two instances', async () => {
    const prefix = redisPrefix();
    const file = await policyFile({
      tools: { 'fx-echo': { limit: 3, burst: 1 }, 'fx-sleep': { maxInFlightPerClient: 1, timeoutMs: 2000 } },
    });
    // A short wait bound: a run past the cap is refused rather than served later.
    const env = { REDIS_URL, REDIS_PREFIX: prefix, POLICY_FILE: file, CAP_WAIT_MS: '0' };
    const [one, two] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await get(i % 2 ? two : one, String(i))).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      const sleep = (a: TestApp) =>
        a.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: '300' } });
      const both = await Promise.all([sleep(one), sleep(two)]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 429]);
      expect(errorBody(both.find((r) => r.statusCode === 429)!).errorCode).toBe('CONCURRENCY_LIMIT');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('lets a run past the shared per-client cap wait for the slot held by the other instance', async () => {
    const prefix = redisPrefix();
    const file = await policyFile({ tools: { 'fx-sleep': { maxInFlightPerClient: 1, timeoutMs: 2000 } } });
    const env = { REDIS_URL, REDIS_PREFIX: prefix, POLICY_FILE: file };
    const [one, two] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    try {
      const sleep = (a: TestApp) =>
        a.inject({ method: 'POST', url: '/api/tools/run/', payload: { toolId: 'fx-sleep', a: '300' } });
      const started = Date.now();
      const both = await Promise.all([sleep(one), sleep(two)]);
      expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
      // One slot between both instances: the runs went one after the other.
      expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe('admission checks batched per event-loop turn', () => {
  it("keeps each client's cap exact when many requests arrive together, and frees every slot", async () => {
    const prefix = redisPrefix();
    const file = await policyFile({ tools: { 'fx-sleep': { maxInFlightPerClient: 3, timeoutMs: 2000 } } });
    const app = await buildTestApp({
      REDIS_URL,
      REDIS_PREFIX: prefix,
      POLICY_FILE: file,
      POOL_THREADS: '4',
      CAP_WAIT_MS: '0',
    });
    const redis = new Redis(REDIS_URL);
    try {
      const sleep = (remoteAddress: string) =>
        app.inject({
          method: 'POST',
          url: '/api/tools/run/',
          payload: { toolId: 'fx-sleep', a: '200' },
          remoteAddress,
        });
      const clients = ['10.0.0.1', '10.0.0.2'];
      const running = Promise.all(clients.flatMap((ip) => Array.from({ length: 8 }, () => sleep(ip))));
      // While they run, each admitted run holds its lease, and the scrape counts them.
      await expect
        .poll(async () => (await app.inject({ url: '/metrics' })).body)
        .toMatch(/^toolhub_client_leases_held\{tool="fx-sleep"\} [1-6]$/m);
      const answers = await running;
      for (const [i, ip] of clients.entries()) {
        const mine = answers.slice(i * 8, i * 8 + 8).map((r) => r.statusCode);
        expect(
          mine.filter((s) => s === 200),
          ip,
        ).toHaveLength(3);
        expect(
          mine.filter((s) => s === 429),
          ip,
        ).toHaveLength(5);
      }
      // Every lease was given back: the lease sets are gone (Redis deletes an empty set).
      await expect.poll(() => redis.keys(`${prefix}lim:*:l`)).toEqual([]);
      expect((await app.inject({ url: '/metrics' })).body).toMatch(
        /^toolhub_client_leases_held\{tool="fx-sleep"\} 0$/m,
      );
      const budgets = await Promise.all(
        clients.map((ip) => redis.hget(`${prefix}lim:{${ip}}:fx-sleep`, 'u')),
      );
      for (const used of budgets) expect(Number(used)).toBeGreaterThanOrEqual(3 * 200);
    } finally {
      redis.disconnect();
      await app.close();
    }
  });
});

describe('when Redis fails at run time', () => {
  const redis = new PrivateRedis();
  afterAll(() => redis.stop());

  it('serves on the insurance limiter, says degraded, and returns to Redis by itself', async () => {
    await redis.start();
    const url = redis.url;
    const app = await buildTestApp({ REDIS_URL: url, REDIS_COMMAND_TIMEOUT_MS: '100' });
    try {
      expect((await get(app, 'a')).statusCode).toBe(200);
      await redis.stop();
      const during = [];
      for (let i = 0; i < 5; i++) during.push((await get(app, `d${i}`)).statusCode);
      expect(during).toEqual([200, 200, 200, 200, 200]);
      const ready = (await app.inject({ url: '/readyz' })).json();
      expect(ready).toMatchObject({ ok: true, status: 'degraded', limiterStore: 'degraded' });
      const metrics = (await app.inject({ url: '/metrics' })).body;
      expect(metrics).toMatch(/^toolhub_limiter_store_degraded 1$/m);
      expect(metrics).toMatch(/^toolhub_limiter_fallbacks_total\{reason="\w+"\} [1-9]/m);

      await redis.start();
      await expect
        .poll(async () => (await app.inject({ url: '/readyz' })).json().limiterStore, {
          timeout: 20_000,
          interval: 250,
        })
        .toBe('redis');
      expect((await get(app, 'back')).statusCode).toBe(200);
      const fresh = new Redis(url);
      try {
        // Counted in the (restarted, empty) Redis again: the client's key for the tool is back.
        expect((await fresh.keys('toolhub:lim:{*}:fx-echo')).length).toBe(1);
      } finally {
        fresh.disconnect();
      }
    } finally {
      await app.close();
    }
  });
});
