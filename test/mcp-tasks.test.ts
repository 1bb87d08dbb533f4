/**
 * MCP tasks (docs/api.md, "MCP tasks") through the published clients: the TypeScript SDK
 * 1.x experimental tasks client on 2025-11-25, and the `@modelcontextprotocol/ext-tasks`
 * client on 2025-11-25 and on the 2026-07-28 tasks extension. A task is a job (one store
 * with POST /api/jobs/), bound to the caller's key: another key cannot read, cancel or list
 * it. A real hub on loopback, a real Redis.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type RawClientDispatch,
  resultFromTaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysFile,
  buildTestApp,
  failedReasonOf,
  PATIENT,
  PATIENT_FIXTURES,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';

const KEYS = [
  { id: 'alice', key: 'alice-key-0123456789' },
  { id: 'bob', key: 'bob-key-0123456789' },
];
const info = { name: 'hub-tasks-test', version: '1.0.0' };
let app: TestApp;
let appPrefix = '';
let idle: TestApp;
let url: URL;
let idleUrl: URL;

const headersOf = (who: number) => ({ authorization: `Bearer ${KEYS[who]!.key}` });

async function listening(a: TestApp): Promise<URL> {
  await a.listen({ port: 0, host: '127.0.0.1' });
  return new URL(`http://127.0.0.1:${(a.server.address() as { port: number }).port}/mcp`);
}

beforeAll(async () => {
  await requireRedis();
  const file = await apiKeysFile(KEYS);
  const env = { REDIS_URL, ...PATIENT, API_KEYS_FILE: file, POLICY_FILE: await policyFile(PATIENT_FIXTURES) };
  appPrefix = redisPrefix();
  app = await buildTestApp({ ...env, REDIS_PREFIX: appPrefix });
  // Takes no jobs: a task made here stays working until it is cancelled.
  idle = await buildTestApp({ ...env, REDIS_PREFIX: redisPrefix(), JOBS_CONCURRENCY: '0' });
  url = await listening(app);
  idleUrl = await listening(idle);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await idle?.close();
});

async function v1Client(at: URL, who = 0): Promise<ClientV1> {
  const client = new ClientV1(info);
  await client.connect(new TransportV1(at, { requestInit: { headers: headersOf(who) } }));
  return client;
}

describe('SDK 1.x experimental tasks client, 2025-11-25', () => {
  it('sees every tool as task-capable, runs one as a task, and reads it back', async () => {
    const client = await v1Client(url);
    try {
      expect(client.getServerCapabilities()?.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'fx-echo')?.execution).toEqual({ taskSupport: 'optional' });
      const args = { name: 'fx-echo', arguments: { text: 'as a task' } };
      const events: string[] = [];
      let taskId = '';
      let result: { structuredContent?: unknown; _meta?: Record<string, unknown> } | undefined;
      for await (const message of client.experimental.tasks.callToolStream(args, undefined, { task: {} })) {
        events.push(message.type);
        if (message.type === 'taskCreated') taskId = message.task.taskId;
        if (message.type === 'result') result = message.result as typeof result;
        // A failed task says why: BullMQ's reason, read from Redis.
        if (message.type === 'error')
          throw new Error(`${message.error.message}: ${await failedReasonOf(appPrefix, taskId)}`);
      }
      expect(events[0]).toBe('taskCreated');
      expect(events.at(-1)).toBe('result');
      const plain = await client.callTool(args);
      expect(result!.structuredContent).toEqual(plain.structuredContent);
      expect(result!._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
      const task = await client.experimental.tasks.getTask(taskId);
      expect(task).toMatchObject({ taskId, status: 'completed', pollInterval: 500 });
      const { tasks } = await client.experimental.tasks.listTasks();
      expect(tasks.find((t) => t.taskId === taskId)?.status).toBe('completed');
      await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/already completed/);
    } finally {
      await client.close();
    }
  });

  it('answers a refused run as a completed task whose result is the error', async () => {
    const client = await v1Client(url);
    try {
      const stream = client.experimental.tasks.callToolStream(
        { name: 'fx-echo', arguments: { text: 'x'.repeat(5000) } },
        undefined,
        { task: {} },
      );
      let result: { isError?: boolean; _meta?: { error?: { errorCode: string } } } | undefined;
      for await (const message of stream)
        if (message.type === 'result') result = message.result as typeof result;
      expect(result?.isError).toBe(true);
      expect(result?._meta?.error?.errorCode).toBe('INPUT_TOO_LARGE');
    } finally {
      await client.close();
    }
  });

  it('cancels a working task; another key can neither read, cancel nor list it', async () => {
    const alice = await v1Client(idleUrl, 0);
    const bob = await v1Client(idleUrl, 1);
    try {
      const stream = alice.experimental.tasks.callToolStream(
        { name: 'fx-echo', arguments: { text: 'never runs' } },
        undefined,
        { task: {} },
      );
      const first = await stream.next();
      expect(first.value).toMatchObject({ type: 'taskCreated', task: { status: 'working' } });
      const { taskId } = (first.value as { task: { taskId: string } }).task;
      await stream.return(undefined);
      await expect(bob.experimental.tasks.getTask(taskId)).rejects.toThrow(/Task not found/);
      await expect(bob.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/Task not found/);
      expect((await bob.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
      const cancelled = await alice.experimental.tasks.cancelTask(taskId);
      expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
      expect((await alice.experimental.tasks.getTask(taskId)).status).toBe('cancelled');
      await expect(alice.experimental.tasks.getTaskResult(taskId)).rejects.toThrow(/was cancelled/);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

/** The ext-tasks session's raw path for 2026-07-28 task messages: a POST with the standard headers. */
function rawDispatchFor(at: URL, who: number): RawClientDispatch {
  let id = 0;
  return async (request) => {
    const { method, params = {} } = request as { method: string; params?: Record<string, unknown> };
    const named = (params.name ?? params.taskId) as string | undefined;
    const res = await fetch(at, {
      method: 'POST',
      headers: {
        ...headersOf(who),
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(named ? { 'mcp-name': named } : {}),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
    return body.error
      ? { kind: 'error', error: body.error }
      : { kind: 'result', result: body.result as JsonValue };
  };
}

describe.each(['2025-11-25', '2026-07-28'] as const)('the ext-tasks client, %s', (revision) => {
  it('runs a tool as a task and settles it with the result a plain call gives', async () => {
    const modern = revision === '2026-07-28';
    const client = new Client(info, modern ? { versionNegotiation: { mode: { pin: revision } } } : {});
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: headersOf(0) } }));
    expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
    const session = modern
      ? createTaskSessionFromClient(client, {
          endpointId: 'tool-hub',
          rawDispatch: rawDispatchFor(url, 0),
          v2RequestFraming: { protocolVersion: revision, clientInfo: info, clientCapabilities: {} },
        })
      : createTaskSessionFromClient(client, { endpointId: 'tool-hub' });
    try {
      const execution = await session.callTool(
        'fx-echo',
        { text: `ext-tasks ${revision}` },
        { task: { preference: 'require' } },
      );
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = resultFromTaskOutcome(outcome) as { structuredContent?: unknown };
      const plain = await client.callTool({ name: 'fx-echo', arguments: { text: `ext-tasks ${revision}` } });
      expect(result.structuredContent).toEqual(plain.structuredContent);
      // The task is a job of the caller's: the jobs' door shows it.
      const job = await app.inject({ url: `/api/jobs/${execution.handle!.taskId}`, headers: headersOf(0) });
      expect(JSON.parse(job.body)).toMatchObject({ state: 'succeeded', task: true, toolId: 'fx-echo' });
    } finally {
      await session.close();
      await client.close();
    }
  });
});

describe('the 2026-07-28 task methods on the wire', () => {
  const post = (method: string, params: Record<string, unknown>, named: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        ...headersOf(0),
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        'mcp-name': named,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }).then((r) => r.json() as Promise<{ result?: Record<string, unknown>; error?: { code: number } }>);
  const declared = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': info,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    },
  };

  it('refuses the extension methods to a client that did not declare it, and acknowledges a late cancel', async () => {
    const created = await post(
      'tools/call',
      { name: 'fx-echo', arguments: { text: 'wire' }, ...declared },
      'fx-echo',
    );
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 500 });
    const taskId = created.result!.taskId as string;
    expect((await post('tasks/get', { taskId }, taskId)).error?.code).toBe(-32021);
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 400 && task.status !== 'completed'; i++) {
      task = (await post('tasks/get', { taskId, ...declared }, taskId)).result!;
      if (task.status !== 'completed') await new Promise((r) => setTimeout(r, 50));
    }
    expect(task).toMatchObject({
      status: 'completed',
      result: { resultType: 'complete', structuredContent: {} },
    });
    expect((await post('tasks/cancel', { taskId, ...declared }, taskId)).result).toMatchObject({
      resultType: 'complete',
    });
  });
});
