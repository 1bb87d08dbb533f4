/**
 * GET /api/usage (docs/api.md, "Usage") with two real hub processes on one Redis: what a
 * key spent through either replica is what either replica reports, under the key's tier.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysFile,
  buildTestApp,
  errorBody,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
} from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

interface ToolUsage {
  rate: {
    limit: number;
    burst: number;
    windowSec: number;
    used: number;
    remaining: number;
    resetSec: number;
  };
  budget: { limitMs: number; usedMs: number; remainingMs: number; resetSec: number };
  concurrency: { limit: number; inFlight: number };
}
interface Usage {
  ok: true;
  client: string;
  tier: string | null;
  store: string;
  tools: Record<string, ToolUsage>;
  total: { runs: number; computeMs: number; inFlight: number };
}

const KEYS = [
  { id: 'k-pro', key: 'secret-pro-key-0123456789', tier: 'pro' },
  { id: 'k-free', key: 'secret-free-key-0123456789' },
];
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('GET /api/usage across two replicas', () => {
  let a: Instance | undefined;
  let b: Instance | undefined;
  beforeAll(async () => {
    await requireRedis();
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      POLICY_FILE: await policyFile({ tools: { 'token-counter': { limit: 5, burst: 1 } } }),
      API_KEYS_FILE: await apiKeysFile(KEYS, { pro: { multiplier: 2 } }),
    };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
  });

  const usage = async (base: string, key: string) => {
    const res = await fetch(`${base}/api/usage`, { headers: bearer(key) });
    expect(res.status).toBe(200);
    return { res, body: (await res.json()) as Usage };
  };

  it('reports what the key spent through both replicas, under its tier', async () => {
    let charged = 0;
    for (const [i, base] of [a!.base, a!.base, a!.base, b!.base, b!.base].entries()) {
      const res = await fetch(`${base}/api/token-counter/?text=usage%20${i}`, {
        headers: bearer(KEYS[0]!.key),
      });
      expect(res.status).toBe(200);
      charged += Math.ceil(((await res.json()) as { runtime: { durationMs: number } }).runtime.durationMs);
    }
    for (const base of [a!.base, b!.base]) {
      const { res, body } = await usage(base, KEYS[0]!.key);
      expect(body).toMatchObject({ ok: true, client: 'key:k-pro', tier: 'pro', store: 'redis' });
      const t = body.tools['token-counter']!;
      // The tier doubles the limit, the burst, the budget and the cap.
      expect(t.rate).toMatchObject({ limit: 10, burst: 2, windowSec: 60, used: 5, remaining: 7 });
      expect(t.rate.resetSec).toBeGreaterThan(0);
      expect(t.rate.resetSec).toBeLessThanOrEqual(60);
      // Each run is charged its worker time rounded up, at least 1 ms (within 1 ms a run of the answer's rounding).
      expect(t.budget.usedMs).toBeGreaterThanOrEqual(5);
      expect(Math.abs(t.budget.usedMs - charged)).toBeLessThanOrEqual(5);
      expect(t.budget.remainingMs).toBe(t.budget.limitMs - t.budget.usedMs);
      expect(t.concurrency).toEqual({ limit: 8, inFlight: 0 });
      expect(body.total).toMatchObject({ runs: 5, inFlight: 0 });
      expect(Object.keys(body.tools).length).toBe(12);
      expect(body.tools['regex-tester']!.rate.used).toBe(0);
      const policy = res.headers.get('ratelimit-policy')!;
      expect(policy).toContain('"@usage";q=60;w=60');
      // The tier's limit and burst: q is what a fresh client may make per window.
      expect(policy).toContain('"token-counter";q=12;w=60');
      expect(res.headers.get('ratelimit')).toMatch(/^"@usage";r=\d+;t=\d+$/);
    }
    // Another key counts apart, on its own (tierless) numbers.
    const other = (await usage(b!.base, KEYS[1]!.key)).body;
    expect(other).toMatchObject({ client: 'key:k-free', tier: null });
    expect(other.tools['token-counter']!.rate).toMatchObject({ limit: 5, burst: 1, used: 0, remaining: 6 });
  });

  it('agrees with the RateLimit header of the last run', async () => {
    const run = await fetch(`${a!.base}/api/tools/run/?toolId=cron-expression&a=*/5%20*%20*%20*%20*`, {
      headers: bearer(KEYS[1]!.key),
    });
    expect(run.status).toBe(200);
    const remaining = Number(run.headers.get('x-ratelimit-remaining'));
    const { body } = await usage(b!.base, KEYS[1]!.key);
    expect(body.tools['cron-expression']!.rate.remaining).toBe(remaining);
    expect(body.tools['cron-expression']!.rate.used).toBe(1);
  });

  it('is the MCP resource toolhub://usage for an agent, the same as over HTTP', async () => {
    const client = new Client({ name: 'usage-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${b!.base}/mcp`), {
        requestInit: { headers: bearer(KEYS[0]!.key) },
      }),
    );
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain('toolhub://usage');
      const read = await client.readResource({ uri: 'toolhub://usage' });
      const content = read.contents[0] as { mimeType?: string; text: string };
      expect(content.mimeType).toBe('application/json');
      const body = JSON.parse(content.text) as Usage;
      expect(body).toMatchObject({ client: 'key:k-pro', tier: 'pro', store: 'redis' });
      const http = (await usage(a!.base, KEYS[0]!.key)).body;
      expect(body.tools['token-counter']!.rate.used).toBe(http.tools['token-counter']!.rate.used);
    } finally {
      await client.close();
    }
  });

  it('needs a key when keys are on, and is itself rate limited', async () => {
    const anonymous = await fetch(`${a!.base}/api/usage`);
    expect(anonymous.status).toBe(401);
    let last: Response | undefined;
    for (let i = 0; i < 61; i++)
      last = await fetch(`${b!.base}/api/usage`, { headers: bearer(KEYS[1]!.key) });
    // 60 reads a minute per caller, counted in Redis across both replicas (one read above on each).
    expect(last!.status).toBe(429);
    const body = errorBody({ statusCode: last!.status, body: await last!.text() });
    expect(body.errorCode).toBe('RATE_LIMITED');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refusal names its limit, with nothing left.
    expect(last!.headers.get('ratelimit')).toMatch(/^"@usage";r=0;t=\d+$/);
    expect(last!.headers.get('ratelimit-policy')).toBe('"@usage";q=60;w=60');
  });
});

describe('GET /api/usage without Redis', () => {
  it('reads this instance and names the address when keys are off', async () => {
    const app = await buildTestApp();
    try {
      await app.inject({ url: '/api/tools/run/?toolId=fx-echo&a=one' });
      const res = await app.inject({ url: '/api/usage' });
      expect(res.statusCode).toBe(200);
      const body = res.json() as Usage;
      expect(body).toMatchObject({ client: '127.0.0.1', tier: null, store: 'memory' });
      expect(body.tools['fx-echo']!.rate.used).toBe(1);
    } finally {
      await app.close();
    }
  });
});
