/**
 * The MCP door under the same contract as the others (docs/api.md, "MCP for agents"):
 * every message metered and shared across replicas, batches bounded before any work,
 * junk counted message by message, one access-log line naming every call of a batch.
 * Real processes on a real Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

async function post(hub: Instance, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${hub.base}/mcp`, {
    method: 'POST',
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

async function runsOk(hub: Instance, tool: string): Promise<number> {
  const text = await (await fetch(`${hub.base}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`toolhub_runs_total{tool="${tool}",surface="mcp",source="mcp",outcome="ok"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('MCP message limit, shared by two replicas on Redis', () => {
  const replicas: Instance[] = [];
  beforeAll(async () => {
    await requireRedis();
    const env = { REDIS_URL, REDIS_PREFIX: redisPrefix(), MCP_MESSAGE_LIMIT: '6' };
    replicas.push(...(await Promise.all([startInstance(env), startInstance(env)])));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => stopInstance(r)));
  });

  it('charges every message, listings included, and answers 429 with Retry-After past the limit', async () => {
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await post(replicas[i % 2]!, list(i)));
    expect(answers.slice(0, 6).map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    // Every answer names the message limit in its RateLimit fields (docs/api.md, "Limit names and the RateLimit headers").
    expect(answers[0]!.headers.get('ratelimit')).toMatch(/^"@mcp";r=5;t=\d+$/);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"@mcp";q=6;w=60');
    for (const refused of answers.slice(6)) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('ratelimit')).toMatch(/^"@mcp";r=0;t=\d+$/);
      expect(refused.headers.get('ratelimit-policy')).toBe('"@mcp";q=6;w=60');
      const body = JSON.parse(refused.text);
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { data: { errorCode: 'RATE_LIMITED' } } });
      expect(body.error.data.retryAfterSec).toBeGreaterThan(0);
    }
  });
});

describe('MCP batches and junk', () => {
  let hub: Instance;
  beforeAll(async () => {
    hub = await startInstance({
      LOG_LEVEL: 'info',
      JUNK_LIMIT: '8',
      MCP_BATCH_MAX_MESSAGES: '5',
      MCP_BATCH_MAX_ANSWER_BYTES: '100000',
    });
  });
  afterAll(async () => {
    await stopInstance(hub);
  });

  it('refuses a batch longer than MCP_BATCH_MAX_MESSAGES before running any of it', async () => {
    const before = await runsOk(hub, 'token-counter');
    const batch = Array.from({ length: 6 }, (_, i) => call(i, 'token-counter', { text: 'a' }));
    const res = await post(hub, batch);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).error.data).toMatchObject({ errorCode: 'INPUT_TOO_LARGE' });
    expect(await runsOk(hub, 'token-counter')).toBe(before);
  });

  it('refuses a batch whose listings would answer more than MCP_BATCH_MAX_ANSWER_BYTES', async () => {
    const res = await post(hub, [list(1), list(2), list(3), list(4), list(5)]);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(/bytes of listings/);
  });

  it('refuses two calls with the same id in one batch, running neither', async () => {
    const before = await runsOk(hub, 'token-counter');
    const res = await post(hub, [
      call(7, 'token-counter', { text: 'a' }),
      call(7, 'token-counter', { text: 'b' }),
    ]);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(/used twice/);
    expect(await runsOk(hub, 'token-counter')).toBe(before);
  });

  it('logs every call of a batch with its own request id', async () => {
    const res = await post(
      hub,
      [
        call(1, 'token-counter', { text: 'a' }),
        call(2, 'regex-tester', { pattern: 'a', text: 'a', mode: 'nope' }),
      ],
      {
        'x-request-id': 'batch-log-test',
      },
    );
    expect(res.status).toBe(200);
    // The line is written once the answer has gone: wait for it to reach the pipe.
    const find = () =>
      hub
        .stdout()
        .split('\n')
        .find((l) => l.includes('"reqId":"batch-log-test"') && l.includes('request completed'));
    for (let i = 0; i < 100 && !find(); i++) await new Promise((r) => setTimeout(r, 50));
    const line = find();
    expect(line).toBeDefined();
    const calls = JSON.parse(line!).calls as {
      toolId: string;
      errorCode: string | null;
      requestId: string;
    }[];
    expect(calls.map((c) => [c.toolId, c.errorCode]).sort()).toEqual([
      ['regex-tester', 'UNSUPPORTED_OPTION'],
      ['token-counter', null],
    ]);
    expect(new Set(calls.map((c) => c.requestId)).size).toBe(2);
  });

  it('counts junk message by message: unknown tools block the sender like 400s do', async () => {
    // Earlier tests of this file spent 3 refusals of the 8 allowed (bounds and duplicates).
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await post(hub, call(i, 'no-such-tool')));
    expect(answers[0]!.status).toBe(200);
    expect(answers.at(-1)!.status).toBe(429);
    // Health probes from the same address still answer.
    expect((await fetch(`${hub.base}/healthz`)).status).toBe(200);
  });
});

describe('MCP and deep JSON', () => {
  it('refuses arguments nested 5,000 deep with INVALID_INPUT, as every door does', async () => {
    const hub = await startInstance({});
    try {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      const body = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"structured-diff","arguments":{"left":${deep},"right":1}}}`;
      const res = await fetch(`${hub.base}/mcp`, { method: 'POST', headers: HEADERS, body });
      expect(res.status).toBe(400);
      const answer = (await res.json()) as { error: { code: number; data: { errorCode: string } } };
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.data.errorCode).toBe('INVALID_INPUT');
      // The hub still answers.
      expect((await post(hub, list(2))).status).toBe(200);
    } finally {
      await stopInstance(hub);
    }
  });
});
