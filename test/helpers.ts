import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { buildApp } from '../src/app.js';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURE_TOOLS = join(here, 'fixtures', 'tools');
export const NO_TOOLS = join(here, 'fixtures', 'no-tools');
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

/**
 * An app with only the test fixture tools (fast to start) unless `realTools` is set.
 * Queue waits are generous: under tsx a fresh worker takes a while to load its tools.
 */
export async function buildTestApp(env: Record<string, string> = {}, realTools = false): Promise<TestApp> {
  const app = await buildApp({
    logger: false,
    ...(realTools ? {} : { toolsDir: NO_TOOLS }),
    env: {
      LOG_LEVEL: 'silent',
      EXTRA_TOOL_DIRS: realTools ? '' : FIXTURE_TOOLS,
      POOL_THREADS: '2',
      QUEUE_WAIT_MS: '30000',
      // A shared, loaded CI machine can stall a test process for a second: load shedding
      // is switched on only by the tests of it.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      // Tests send many bad requests from one address on purpose; the junk limiter's own
      // tests switch it on.
      JUNK_LIMIT: '0',
      ...env,
    },
  });
  await app.ready();
  // The boot stops waiting for the workers after a bound; tests start from a warm pool.
  await app.pool.warmUp();
  await settled(app);
  return app;
}

/**
 * With a Redis that answers: waits (at most 10 s) until the eviction policy of the limiter's
 * Redis is read and the result cache's connection is up, so a test's first run finds the
 * result cache as it will stay (docs/operations.md, "Result cache").
 */
async function settled(app: TestApp): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (
    Date.now() < deadline &&
    app.limits.redis?.client.status === 'ready' &&
    (app.limiterEviction?.state === null || app.resultCacheState() === 'degraded')
  )
    await new Promise((r) => setTimeout(r, 25));
}

/**
 * A Redis command bound for tests that assert where a result went (`Cache-Status: …;
 * detail=shared`) or an exact limit: a loaded 2-core machine can hold a reply past the default
 * 200 ms, which sends a store to the in-process layer (and says so) or a limiter call to the
 * insurance store, and such a test astray. A Redis that is stopped still fails at once.
 */
export const PATIENT = { REDIS_COMMAND_TIMEOUT_MS: '2000' };

/** A key prefix of its own for every test run, so runs never share Redis counters. */
export function redisPrefix(): string {
  return `toolhub-test:${randomUUID()}:`;
}

/** Fails (never skips) with a way to start Redis when none is reachable. */
export async function requireRedis(url = REDIS_URL): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(
      `Redis is not reachable at ${url} (${(err as Error).message}). Start one with ` +
        `'redis-server --daemonize yes --port 6379 --save ""' or set REDIS_URL.`,
    );
  } finally {
    client.disconnect();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Writes a policy file for one test and returns its path. */
export async function policyFile(content: object): Promise<string> {
  const { writeFile, mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const dir = await mkdtemp(join(tmpdir(), 'toolhub-policy-'));
  const path = join(dir, 'policy.json');
  await writeFile(path, JSON.stringify(content));
  return path;
}

/** Writes an API keys file (docs/operations.md, "Securing the hub") holding the given plain keys. */
export async function apiKeysFile(
  keys: { id: string; key: string; tier?: string }[],
  tiers: Record<string, { multiplier: number; quota?: Record<string, number> }> = {},
): Promise<string> {
  const { sha256 } = await import('../src/auth/api-keys.js');
  return policyFile({
    tiers,
    keys: keys.map(({ id, key, tier }) => ({
      id,
      sha256: sha256(key).toString('hex'),
      ...(tier ? { tier } : {}),
    })),
  });
}

/** Asserts the ToolRunError shape and returns the body. */
export function errorBody(res: { statusCode: number; body: string }): {
  ok: false;
  error: string;
  errorCode: string;
  rateLimit?: Record<string, number>;
  runtime?: Record<string, unknown>;
} {
  const body = JSON.parse(res.body);
  if (body.ok !== false || typeof body.error !== 'string' || typeof body.errorCode !== 'string') {
    throw new Error(`not a ToolRunError (${res.statusCode}): ${res.body}`);
  }
  // A V8 frame: `at fn (file:line:col)` or `at /file:line:col` (an ISO time "at 00:00:00" is none).
  if (/\bat [^\s(]+ \([^)]*:\d+:\d+\)|\bat (?:file:|node:|\/)\S*:\d+:\d+/.test(res.body))
    throw new Error(`stack trace leaked: ${res.body}`);
  return body;
}

/** GET on the generic runtime endpoint with `a` as the text. */
export const getRun = (a: TestApp, toolId: string, text: string, headers: Record<string, string> = {}) =>
  a.inject({ url: `/api/tools/run?toolId=${toolId}&a=${encodeURIComponent(text)}`, headers });

/** The value of an unlabelled metric on /metrics (0 when absent). */
export async function metricValue(a: TestApp, name: string): Promise<number> {
  const text = (await a.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').pop()) : 0;
}

interface ListedSchema {
  properties: Record<string, { enum?: unknown[] }>;
}
/** A tool as MCP's tools/list lists it. */
export interface ListedTool {
  name: string;
  inputSchema: ListedSchema;
  outputSchema?: ListedSchema;
}

/** An MCP answer's JSON text: the body itself, or the first message of an SSE answer (2025-era requests are answered so). */
export function mcpMessage(body: string): string | undefined {
  return body.startsWith('{')
    ? body
    : body
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6);
}

/** One tool of the MCP tools/list answer. */
export async function mcpListedTool(a: TestApp, name: string): Promise<ListedTool> {
  const res = await a.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  });
  if (res.statusCode !== 200) throw new Error(`tools/list answered ${res.statusCode}: ${res.body}`);
  const data = mcpMessage(res.body);
  const tools = (JSON.parse(data ?? '{}') as { result?: { tools?: ListedTool[] } }).result?.tools ?? [];
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`tools/list does not list ${name}: ${res.body.slice(0, 500)}`);
  return tool;
}

/**
 * Why BullMQ failed a job (its `failedReason`), read from the hub's Redis: a test that finds
 * a job failed says why, where the client only sees INTERNAL_ERROR (docs/api.md, "Jobs").
 */
export async function failedReasonOf(prefix: string, jobId: string): Promise<string | null> {
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    return await client.hget(`{${prefix}jobs}:jobs:${jobId}`, 'failedReason');
  } finally {
    client.disconnect();
  }
}

/** Fixture tools' policy for tests that run them as jobs: a loaded machine must not turn a run into a TIMEOUT. */
export const PATIENT_FIXTURES = {
  tools: {
    'fx-echo': { limit: 100000, burst: 0, timeoutMs: 20000 },
    'fx-sleep': { timeoutMs: 20000 },
  },
};
