/**
 * Quotas (docs/api.md, "Quotas") with two real hub processes on one Redis: a key's quota is
 * exact across replicas, its refusal is told apart from a rate refusal on every door
 * (runtime, dedicated, batch, MCP), GET /api/usage agrees with what was spent, and a tier
 * changed on SIGHUP applies to the next run. The windows' roll-over is proven on both limit
 * stores with an injected clock (src/limits/stores.test.ts, src/limits/quota-windows.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/auth/api-keys.js';
import { dayEndOf } from '../src/limits/calendar.js';
import { policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { type Instance, serverJs, startInstance, stopInstance } from './server-process.js';

const KEY = 'secret-quota-key-0123456789';
const MS_KEY = 'secret-ms-quota-key-0123456';
const OTHER = 'secret-other-key-0123456789';
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const keysFile = (tier: string) => ({
  tiers: {
    small: { multiplier: 1, quota: { runsPerDay: 4 } },
    large: { multiplier: 1, quota: { runsPerDay: 6, computeMsPerMonth: 10_000_000 } },
    // One millisecond a day: the first run is admitted (0 used), the next finds it spent.
    thrifty: { multiplier: 1, quota: { computeMsPerDay: 1 } },
  },
  keys: [
    { id: 'k-quota', sha256: sha256(KEY).toString('hex'), tier },
    { id: 'k-other', sha256: sha256(OTHER).toString('hex') },
    { id: 'k-ms', sha256: sha256(MS_KEY).toString('hex'), tier: 'thrifty' },
  ],
});

interface Refusal {
  ok: false;
  errorCode: string;
  rateLimit: { scope?: string; quota?: Record<string, unknown>; retryAfterSec: number };
}

describe('quotas across two replicas', () => {
  let a: Instance | undefined;
  let b: Instance | undefined;
  let keys = '';
  beforeAll(async () => {
    await requireRedis();
    keys = await policyFile(keysFile('small'));
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      API_KEYS_FILE: keys,
      // A tool's own quota (per client) beside a tight rate limit on another tool.
      POLICY_FILE: await policyFile({
        tools: { 'regex-tester': { quota: { runsPerDay: 1 } }, 'cron-expression': { limit: 1, burst: 0 } },
      }),
    };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
  });

  const usage = async (base: string, key: string) => {
    const res = await fetch(`${base}/api/usage`, { headers: auth(key) });
    expect(res.status).toBe(200);
    return (await res.json()) as {
      quota?: {
        day: {
          runs: { used: number; limit: number | null; remaining: number | null };
          computeMs: { used: number; limit: number | null; remaining: number | null };
          resetAt: string;
        };
      };
      tools: Record<string, { quota?: { day: { runs: { used: number; limit: number | null } } } }>;
      total: { runs: number; computeMs: number };
    };
  };
  const expectQuotaRefusal = (body: Refusal, per: 'key' | 'tool', limit: number) => {
    expect(body).toMatchObject({ ok: false, errorCode: 'RATE_LIMITED' });
    expect(body.rateLimit.scope).toBe('quota');
    expect(body.rateLimit.quota).toMatchObject({ per, window: 'day', kind: 'runs', limit, used: limit });
    // The window ends at the next UTC midnight (or the one after, should the test cross it).
    const end = Date.parse(body.rateLimit.quota!.resetAt as string);
    expect([dayEndOf(Date.now()), dayEndOf(Date.now() - 60_000)]).toContain(end);
    expect(body.rateLimit.retryAfterSec).toBeGreaterThan(0);
    expect(body.rateLimit.retryAfterSec).toBeLessThanOrEqual(86_400);
  };

  it("counts a key's runs exactly across replicas and refuses the next on every door, as a quota", async () => {
    // Four runs through alternating replicas and doors spend the day's quota of 4.
    const runs = [
      () => fetch(`${a!.base}/api/tools/run/?toolId=token-counter&a=one`, { headers: auth(KEY) }),
      () => fetch(`${b!.base}/api/token-counter/?text=two`, { headers: auth(KEY) }),
      () => fetch(`${a!.base}/api/token-counter/?text=three`, { headers: auth(KEY) }),
      () =>
        fetch(`${b!.base}/api/tools/run/?toolId=cron-expression&a=*%20*%20*%20*%20*`, { headers: auth(KEY) }),
    ];
    for (const run of runs) expect((await run()).status).toBe(200);
    const spent = await usage(a!.base, KEY);
    expect(spent.quota!.day.runs).toEqual({ used: 4, limit: 4, remaining: 0 });
    expect(spent.total.runs).toBe(4);
    // The key's worker ms today are its tools' budgets spent (all within this minute's windows).
    expect(spent.quota!.day.computeMs).toEqual({ used: spent.total.computeMs, limit: null, remaining: null });
    expect(spent.total.computeMs).toBeGreaterThanOrEqual(4);

    // Runtime and dedicated, on both replicas: 429, scope quota, Retry-After at midnight UTC.
    for (const url of [
      `${a!.base}/api/tools/run/?toolId=token-counter&a=five`,
      `${b!.base}/api/token-counter/?text=five`,
    ]) {
      const res = await fetch(url, { headers: auth(KEY) });
      expect(res.status).toBe(429);
      const body = (await res.json()) as Refusal;
      expectQuotaRefusal(body, 'key', 4);
      expect(Number(res.headers.get('retry-after'))).toBe(body.rateLimit.retryAfterSec);
    }
    // Batch: each refused item carries the same error object.
    const batch = await fetch(`${b!.base}/api/tools/batch/`, {
      method: 'POST',
      headers: { ...auth(KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ runs: [{ toolId: 'token-counter', a: 'x' }] }),
    });
    const item = ((await batch.json()) as { results: Refusal[] }).results[0]!;
    expectQuotaRefusal(item, 'key', 4);
    // MCP: an isError result whose JSON (text and _meta.error) carries the scope and the retry hint.
    const client = new Client({ name: 'quota-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${a!.base}/mcp`), { requestInit: { headers: auth(KEY) } }),
    );
    try {
      const result = await client.callTool({ name: 'token-counter', arguments: { text: 'x' } });
      expect(result.isError).toBe(true);
      const text = JSON.parse((result.content as { text: string }[])[0]!.text) as Refusal & {
        retryAfterSec: number;
      };
      expectQuotaRefusal(text, 'key', 4);
      expect(text.retryAfterSec).toBe(text.rateLimit.retryAfterSec);
      expect((result._meta!.error as Refusal).rateLimit.scope).toBe('quota');
    } finally {
      await client.close();
    }
    // Refusals did not count: the quota still reads 4 used.
    expect((await usage(b!.base, KEY)).quota!.day.runs.used).toBe(4);
  });

  it('tells a rate refusal (scope rate) from a quota refusal on the same door', async () => {
    const call = () =>
      fetch(`${a!.base}/api/tools/run/?toolId=cron-expression&a=*%20*%20*%20*%20*`, { headers: auth(OTHER) });
    expect((await call()).status).toBe(200);
    const res = await call();
    expect(res.status).toBe(429);
    const body = (await res.json()) as Refusal;
    expect(body.errorCode).toBe('RATE_LIMITED');
    expect(body.rateLimit.scope).toBe('rate');
    expect(body.rateLimit.quota).toBeUndefined();
    // The same on the other doors: a batch item and an MCP result.
    const batch = await fetch(`${b!.base}/api/tools/batch/`, {
      method: 'POST',
      headers: { ...auth(OTHER), 'content-type': 'application/json' },
      body: JSON.stringify({ runs: [{ toolId: 'cron-expression', a: '* * * * *' }] }),
    });
    const item = ((await batch.json()) as { results: Refusal[] }).results[0]!;
    expect(item).toMatchObject({ errorCode: 'RATE_LIMITED', rateLimit: { scope: 'rate' } });
    const client = new Client({ name: 'quota-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${a!.base}/mcp`), { requestInit: { headers: auth(OTHER) } }),
    );
    try {
      const result = await client.callTool({
        name: 'cron-expression',
        arguments: { expression: '* * * * *' },
      });
      expect(result.isError).toBe(true);
      expect((result._meta!.error as Refusal).rateLimit.scope).toBe('rate');
    } finally {
      await client.close();
    }
  });

  it("keeps a tool's own quota per client, reported by GET /api/usage", async () => {
    const run = (base: string) =>
      fetch(`${base}/api/regex-tester/`, {
        method: 'POST',
        headers: { ...auth(OTHER), 'content-type': 'application/json' },
        body: JSON.stringify({ pattern: 'a+', text: 'caaat' }),
      });
    expect((await run(a!.base)).status).toBe(200);
    const refused = await run(b!.base);
    expect(refused.status).toBe(429);
    expectQuotaRefusal((await refused.json()) as Refusal, 'tool', 1);
    const read = await usage(a!.base, OTHER);
    expect(read.tools['regex-tester']!.quota!.day.runs).toMatchObject({ used: 1, limit: 1 });
    expect(read.quota).toBeUndefined();
    // RateLimit-Policy names the run quotas too (the key's and each tool's).
    const policy = (await fetch(`${a!.base}/api/usage`, { headers: auth(KEY) })).headers.get(
      'ratelimit-policy',
    );
    expect(policy).toContain('"regex-tester/day/runs";q=1;w=86400');
    expect(policy).toContain('"@key/day/runs";q=4;w=86400');
  });

  it('refuses past a quota of worker milliseconds as BUDGET_EXCEEDED, scope quota', async () => {
    const run = (base: string) =>
      fetch(`${base}/api/tools/run/?toolId=token-counter&a=ms`, { headers: auth(MS_KEY) });
    expect((await run(a!.base)).status).toBe(200);
    const refused = await run(b!.base);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Refusal;
    expect(body.errorCode).toBe('BUDGET_EXCEEDED');
    expect(body.rateLimit.scope).toBe('quota');
    expect(body.rateLimit.quota).toMatchObject({ per: 'key', window: 'day', kind: 'computeMs', limit: 1 });
    expect(body.rateLimit.quota!.used as number).toBeGreaterThanOrEqual(1);
    const read = await usage(a!.base, MS_KEY);
    expect(read.quota!.day.computeMs.used).toBe(body.rateLimit.quota!.used);
    expect(read.quota!.day.computeMs.remaining).toBe(0);
  });

  it("applies a tier changed on SIGHUP to the next run, keeping the key's use", async () => {
    writeFileSync(keys, JSON.stringify(keysFile('large')));
    a!.proc.kill('SIGHUP');
    b!.proc.kill('SIGHUP');
    const run = (base: string) =>
      fetch(`${base}/api/tools/run/?toolId=token-counter&a=again`, { headers: auth(KEY) });
    // Both replicas read the new file: the 5th and 6th runs of the day pass, the 7th does not.
    await expect
      .poll(async () => (await usage(a!.base, KEY)).quota!.day.runs.limit, { timeout: 10_000 })
      .toBe(6);
    await expect
      .poll(async () => (await usage(b!.base, KEY)).quota!.day.runs.limit, { timeout: 10_000 })
      .toBe(6);
    expect((await run(a!.base)).status).toBe(200);
    expect((await run(b!.base)).status).toBe(200);
    const seventh = await run(a!.base);
    expect(seventh.status).toBe(429);
    expectQuotaRefusal((await seventh.json()) as Refusal, 'key', 6);
    const read = await usage(b!.base, KEY);
    expect(read.quota!.day.runs).toEqual({ used: 6, limit: 6, remaining: 0 });
  });
});

describe('a keys file with a bad quota', () => {
  it('stops the boot with one line naming the tier and the field', async () => {
    const file = await policyFile({
      tiers: { pro: { multiplier: 1, quota: { runsPerMonth: -3 } } },
      keys: [{ id: 'k', sha256: sha256(KEY).toString('hex'), tier: 'pro' }],
    });
    const r = spawnSync(process.execPath, [serverJs], {
      env: { ...process.env, API_KEYS_FILE: file, PORT: '0', HOST: '127.0.0.1', REDIS_URL: '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`tool-hub: API_KEYS_FILE ${file}: /tiers/pro/quota/runsPerMonth must be >= 0\n`);
  }, 90_000);
});
