/**
 * The shared result cache and the ETags (docs/api.md, "Result cache and ETags") with two
 * real hub processes (the built dist/) on one real Redis: what one replica computed, the
 * other answers, on every door, and 304 on If-None-Match on every HTTP door.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATIENT, policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { PrivateCluster } from './private-cluster.js';
import { PrivateRedis } from './private-redis.js';
import { PrivateSentinel } from './private-sentinel.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

// timeoutMs: the test is of the cache; a loaded machine must not turn a run into a TIMEOUT.
const CACHED = { cacheTtlSec: 300, limit: 100_000, burst: 0, timeoutMs: 20_000 };
const RUN = '/api/tools/run/';

interface Answer {
  status: number;
  headers: Headers;
  body: {
    ok: boolean;
    result?: Record<string, unknown>;
    runtime?: { cached?: boolean };
    results?: unknown[];
  };
}

async function call(
  base: string,
  path: string,
  init: { body?: unknown; etag?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (init.etag) headers['if-none-match'] = init.etag;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** A text no other test (or earlier run on the shared Redis) has sent: each test starts from a miss. */
const fresh = (label: string) => `${label} ${Math.random().toString(36).slice(2)} ${Date.now()}`;

describe('two replicas on one Redis', () => {
  let a: Instance | undefined;
  let b: Instance | undefined;
  beforeAll(async () => {
    await requireRedis();
    const file = await policyFile({
      tools: { 'token-counter': CACHED, 'cron-expression': CACHED, 'format-detective': CACHED },
    });
    const env = { REDIS_URL, REDIS_PREFIX: redisPrefix(), ...PATIENT, POLICY_FILE: file };
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b)]);
  });

  it('a run on one replica is a hit on the other, with the same result and ETag', async () => {
    const body = { toolId: 'token-counter', a: fresh('shared'), b: 'gpt-4o' };
    const first = await call(a!.base, RUN, { body });
    expect(first.status).toBe(200);
    expect(first.body.runtime?.cached).toBeUndefined();
    expect(first.headers.get('cache-status')).toBe('toolhub; fwd=miss; stored; detail=shared');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);

    const second = await eventually(
      () => call(b!.base, RUN, { body }),
      (r) => r.body.runtime?.cached === true,
    );
    expect(second.body.result).toEqual(first.body.result);
    expect(second.headers.get('cache-status')).toMatch(/^toolhub; hit; ttl=\d+; detail=shared$/);
    expect(second.headers.get('etag')).toBe(etag);
    // Now in b's memory layer too.
    const third = await call(b!.base, RUN, { body });
    expect(third.headers.get('cache-status')).toMatch(/detail=memory$/);
    const metrics = await (await fetch(`${b!.base}/metrics`)).text();
    expect(metrics).toMatch(/toolhub_result_cache_hits_total\{tool="token-counter",layer="shared"\} [1-9]/);
  });

  it('the same input in another key order, another door or another encoding hits', async () => {
    const text = fresh('order');
    const first = await call(a!.base, '/api/token-counter/', { body: { text, model: 'gpt-4o', limit: 100 } });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    // Keys reversed, a number written as 100.0, the text escaped: the same canonical input.
    const raw = `{"limit":100.0,"model":"gpt-4o","text":${JSON.stringify(text).replace('o', '\\u006f')}}`;
    const res = await fetch(`${b!.base}/api/token-counter/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw,
    });
    expect(res.headers.get('etag')).toBe(etag);
    // The generic runtime's GET names the same fields by position: a, b, c.
    const q = new URLSearchParams({ toolId: 'token-counter', a: text, b: 'gpt-4o', c: '100' });
    const viaGet = await eventually(
      () => call(b!.base, `${RUN}?${q}`),
      (r) => r.body.runtime?.cached === true,
    );
    expect(viaGet.headers.get('etag')).toBe(etag);
    expect(viaGet.body.result).toEqual(first.body.result);
  });

  it('a tool that is not deterministic for an input is never cached and has no ETag', async () => {
    const expression = `${1 + Math.floor(Math.random() * 58)} 3 * * *`;
    const q = (extra: Record<string, string>) =>
      `/api/cron-expression/parse/?${new URLSearchParams({ expression, ...extra })}`;
    for (const base of [a!.base, b!.base, a!.base]) {
      const res = await call(base, q({}));
      expect(res.status).toBe(200);
      expect(res.body.runtime?.cached).toBeUndefined();
      // The cache was not consulted: no Cache-Status (MCP's _meta.cache says bypass).
      expect(res.headers.get('cache-status')).toBeNull();
      expect(res.headers.get('etag')).toBeNull();
    }
    // With `from` given the answer is a function of the input: cached.
    const from = { from: '2026-01-01T00:00:00Z' };
    expect((await call(a!.base, q(from))).headers.get('cache-status')).toBe(
      'toolhub; fwd=miss; stored; detail=shared',
    );
    const hit = await eventually(
      () => call(b!.base, q(from)),
      (r) => r.body.runtime?.cached === true,
    );
    expect(hit.headers.get('etag')).toMatch(/^"/);
  });

  it('If-None-Match with the current ETag answers 304 without a run on GET, POST, dedicated and batch', async () => {
    const text = fresh('etag');
    const body = { toolId: 'format-detective', a: `{"k": "${text}"}` };
    const first = await call(a!.base, RUN, { body });
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const q = new URLSearchParams({ toolId: 'format-detective', a: body.a });
    const ranBefore = await runsOnPool(b!.base, 'format-detective');
    const answers = [
      await call(b!.base, RUN, { body, etag }),
      await call(a!.base, `${RUN}?${q}`, { etag: `W/${etag}, "other"` }),
      await call(b!.base, '/api/format-detective/detect/', { body: { input: body.a }, etag }),
      await call(b!.base, `/api/format-detective/detect/?${new URLSearchParams({ input: body.a })}`, {
        etag,
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(304);
      expect(res.body).toBeNull();
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-status')).toBe('toolhub; hit; detail=etag');
      expect(res.headers.get('ratelimit')).toBeTruthy();
    }
    // Nothing reached a worker on b (a answered one of the 304s; b the other three).
    expect(await runsOnPool(b!.base, 'format-detective')).toBe(ranBefore);
    // Another ETag, or `*`, is not a match: the answer is the full 200.
    for (const other of ['"stale"', '*']) {
      const res = await call(b!.base, RUN, { body, etag: other });
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(first.body.result);
    }

    const batch = { runs: [body, { toolId: 'token-counter', a: text }] };
    const whole = await call(a!.base, '/api/tools/batch/', { body: batch });
    expect(whole.status).toBe(200);
    const batchTag = whole.headers.get('etag')!;
    expect(batchTag).toMatch(/^"/);
    expect(batchTag).not.toBe(etag);
    const again = await call(b!.base, '/api/tools/batch/', { body: batch, etag: batchTag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(batchTag);
    // Another order of the same runs is another answer: another ETag, a full 200.
    const reordered = await call(b!.base, '/api/tools/batch/', {
      body: { runs: [...batch.runs].reverse() },
      etag: batchTag,
    });
    expect(reordered.status).toBe(200);
    expect(reordered.headers.get('etag')).not.toBe(batchTag);
  });

  it('a batch item is a hit like a run sent alone', async () => {
    const body = { toolId: 'token-counter', a: fresh('batch') };
    await call(a!.base, RUN, { body });
    const res = await eventually(
      () => call(b!.base, '/api/tools/batch/', { body: { runs: [body] } }),
      (r) => (r.body.results?.[0] as Answer['body'] | undefined)?.runtime?.cached === true,
    );
    expect(res.status).toBe(200);
  });

  it('MCP tools/call reports the hit in _meta.cache, with the ETag', async () => {
    const text = fresh('mcp');
    const first = await call(a!.base, '/api/token-counter/', { body: { text } });
    const client = new Client({ name: 'cache-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${b!.base}/mcp`)));
    try {
      let meta: Record<string, unknown> | undefined;
      const deadline = Date.now() + 10_000;
      do {
        const result = await client.callTool({ name: 'token-counter', arguments: { text } });
        expect(result.structuredContent).toEqual(first.body.result);
        meta = result._meta as Record<string, unknown>;
      } while ((meta?.cache as { status?: string })?.status !== 'hit' && Date.now() < deadline);
      expect(meta?.cache).toMatchObject({ status: 'hit', etag: first.headers.get('etag') });
      expect((meta?.runtime as { cached?: boolean } | undefined)?.cached).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('Redis away', () => {
  const redis = new PrivateRedis();
  let a: Instance | undefined;
  let b: Instance | undefined;
  let bare: Instance | undefined;
  afterAll(async () => {
    await Promise.all([stopInstance(a), stopInstance(b), stopInstance(bare)]);
    await redis.stop();
  });

  it('a stopped Redis gives misses and correct answers, never errors, and no claim of a shared store', async () => {
    await redis.start();
    const file = await policyFile({ tools: { 'token-counter': CACHED } });
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: redisPrefix(), ...PATIENT, POLICY_FILE: file };
    [a, b, bare] = await Promise.all([
      startInstance(env),
      startInstance(env),
      // No in-process layer either: while Redis is away nothing can hold a result.
      startInstance({ ...env, CACHE_MEMORY_BYTES: '0' }),
    ]);
    const body = { toolId: 'token-counter', a: fresh('away') };
    const first = await call(a.base, RUN, { body });
    expect(first.headers.get('cache-status')).toBe('toolhub; fwd=miss; stored; detail=shared');
    await redis.stop();
    // b never saw the input and Redis is gone: computed again, the same answer, stored in
    // b's memory only, and said so; then a hit from that memory.
    for (let i = 0; i < 3; i++) {
      const res = await call(b.base, RUN, { body });
      expect(res.status).toBe(200);
      expect(res.body.result).toEqual(first.body.result);
      if (i === 0) {
        expect(res.body.runtime?.cached).toBeUndefined();
        expect(res.headers.get('cache-status')).toBe('toolhub; fwd=miss; stored; detail=memory');
      } else {
        expect(res.headers.get('cache-status')).toMatch(/^toolhub; hit; ttl=\d+; detail=memory$/);
      }
    }
    const other = { toolId: 'token-counter', a: fresh('away-new') };
    for (let i = 0; i < 2; i++) {
      const res = await call(bare.base, RUN, { body: other });
      expect(res.status).toBe(200);
      expect(res.body.runtime?.cached).toBeUndefined();
      expect(res.headers.get('cache-status')).toBe('toolhub; fwd=miss; detail=unavailable');
    }
    expect(((await (await fetch(`${b.base}/readyz`)).json()) as { resultCache: string }).resultCache).toBe(
      'degraded',
    );
    // MCP's _meta.cache says the same.
    const client = new Client({ name: 'cache-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${b.base}/mcp`)));
    try {
      const text = fresh('away-mcp');
      const result = await client.callTool({ name: 'token-counter', arguments: { text } });
      expect((result._meta as { cache?: unknown }).cache).toMatchObject({
        status: 'miss',
        stored: true,
        layer: 'memory',
      });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('on every Redis topology', () => {
  const cluster = new PrivateCluster();
  const sentinel = new PrivateSentinel();
  const hubs: Instance[] = [];
  afterAll(async () => {
    await Promise.all(hubs.map((h) => stopInstance(h)));
    await Promise.all([cluster.stop(), sentinel.stop()]);
  });

  const topologies: [string, () => Promise<Record<string, string>>][] = [
    [
      'a 3-master Redis Cluster',
      async () => {
        await cluster.start();
        return { REDIS_CLUSTER_NODES: cluster.nodes };
      },
    ],
    [
      'Redis behind Sentinel',
      async () => {
        await sentinel.start();
        return { REDIS_SENTINELS: sentinel.sentinels, REDIS_SENTINEL_NAME: sentinel.name };
      },
    ],
  ];
  for (const [name, setUp] of topologies) {
    it(`shares results between replicas on ${name}`, async () => {
      const file = await policyFile({ tools: { 'token-counter': CACHED } });
      const env = { ...(await setUp()), REDIS_PREFIX: redisPrefix(), ...PATIENT, POLICY_FILE: file };
      const [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
      hubs.push(a, b);
      // Several inputs: on a Cluster their keys fall in different slots, on different masters.
      for (let i = 0; i < 4; i++) {
        const body = { toolId: 'token-counter', a: fresh(`topology ${i}`) };
        const first = await call(a.base, RUN, { body });
        expect(first.headers.get('cache-status')).toBe('toolhub; fwd=miss; stored; detail=shared');
        const hit = await eventually(
          () => call(b.base, RUN, { body }),
          (r) => r.body.runtime?.cached === true,
        );
        expect(hit.headers.get('cache-status')).toMatch(/detail=shared$/);
        expect(hit.body.result).toEqual(first.body.result);
      }
    }, 120_000);
  }
});

/** Runs of a tool that reached a worker on an instance (the run-duration histogram's count). */
async function runsOnPool(base: string, tool: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`toolhub_run_duration_seconds_count{tool="${tool}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Retries until `done` (a replica's Redis write is not awaited by the answer), bounded. */
async function eventually(get: () => Promise<Answer>, done: (r: Answer) => boolean): Promise<Answer> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await get();
    if (done(r) || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
