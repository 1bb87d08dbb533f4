import { SERVER_INFO_META_KEY } from '@modelcontextprotocol/server';
import type { JobQueue } from '../jobs/job-queue.js';
import type { JobView } from '../jobs/job-types.js';
import type { DirectAnswer, DirectRequest } from './direct.js';
import type { McpCaller, McpParts } from './server.js';
import { TASKS_EXTENSION } from './task-capabilities.js';

/**
 * MCP tasks (docs/api.md, "MCP tasks"): a `tools/call` that asks for a task becomes a job
 * (src/jobs/, one store with `POST /api/jobs/`), bound to the caller's key, and the task
 * methods read it. Two revisions, one store:
 *
 * - 2025-11-25 (tasks in the core protocol): `tools/call` with `params.task` answers
 *   `{task}`; `tasks/get`, `tasks/result` (waits for the end), `tasks/list`, `tasks/cancel`.
 * - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): a `tools/call` whose client
 *   declares the extension (`_meta["io.modelcontextprotocol/clientCapabilities"]`) answers
 *   `{resultType: "task", taskId, …}`; `tasks/get` carries the result or the error once
 *   there is one; `tasks/cancel`.
 *
 * Written here, before the SDK (as src/mcp/direct.ts is): the SDK's server has the methods'
 * schemas but no task store of ours, and a task must be a job any replica can answer.
 * Anything these cannot serve goes on to the SDK, which owns the protocol's errors.
 */
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
/** How often a client should ask (ms): most runs end within it. */
const POLL_MS = 500;
/** `tasks/result` waits this long for the end, then answers the task's error as it stands (the client asks again). */
const RESULT_WAIT_MS = 55_000;
const PAGE = 50;

type Era = 'legacy' | 'modern';
interface Message {
  id: string | number;
  method: string;
  params: Record<string, unknown>;
}

/** The hub's answer to a task message, or null: not one (the direct path and the SDK take it). */
export async function answerTask(
  parts: McpParts,
  caller: McpCaller,
  request: DirectRequest,
): Promise<DirectAnswer | null> {
  const jobs = parts.jobs;
  if (!jobs) return null;
  const message = messageOf(request.body);
  if (!message) return null;
  const era = eraOf(request.headers, message);
  if (!era) return null;
  const { method, params } = message;
  const reply = (result: Record<string, unknown>) => answer(parts, era, message.id, result);
  const fail = (code: number, text: string) => rpcError(era, message.id, code, text);

  if (method === 'tools/call') {
    const wanted = era === 'legacy' ? isObject(params.task) : declaresTasks(params);
    const name = params.name;
    if (!wanted || typeof name !== 'string' || !parts.facade.knows(name)) return null;
    const args = params.arguments ?? {};
    if (!isObject(args)) return null;
    const id = await jobs.submit({
      owner: caller.client,
      call: { kind: 'mcp', toolId: name, arguments: args },
      requestId: caller.nextRequestId(),
    });
    const view = (await jobs.view(id, caller.client))!;
    return era === 'legacy'
      ? reply({ task: legacyTask(view, parts) })
      : reply({ ...modernTask(view, parts), resultType: 'task' });
  }
  if (method === 'tasks/list' && era === 'legacy') {
    const offset = params.cursor === undefined ? 0 : Number(params.cursor);
    if (!Number.isSafeInteger(offset) || offset < 0) return fail(-32602, 'Invalid cursor');
    const page = await jobs.list(caller.client, offset, PAGE, true);
    const tasks = page.jobs.filter((j) => isTask(j)).map((j) => legacyTask(j, parts));
    return reply({ tasks, ...(page.next !== null ? { nextCursor: String(page.next) } : {}) });
  }
  if (method !== 'tasks/get' && method !== 'tasks/result' && method !== 'tasks/cancel') return null;
  if (era === 'modern' && method === 'tasks/result') return null;
  const taskId = params.taskId;
  if (typeof taskId !== 'string') return null;
  // The extension's methods are for a client that declared it (its -32021).
  if (era === 'modern' && !declaresTasks(params))
    return fail(
      -32021,
      `${method} needs the ${TASKS_EXTENSION} extension, declared in _meta["${CLIENT_CAPABILITIES}"]`,
    );
  const found = await jobs.view(taskId, caller.client);
  if (!found || !isTask(found)) return fail(-32602, `Task not found: ${taskId.slice(0, 100)}`);

  if (method === 'tasks/get') {
    return era === 'legacy' ? reply(legacyTask(found, parts)) : reply(detailedTask(found, parts));
  }
  if (method === 'tasks/cancel') {
    const outcome = await jobs.cancel(taskId, caller.client);
    // 2026-07-28 acknowledges a cancel of an ended task; 2025-11-25 refuses it.
    if (outcome === 'finished' && era === 'modern') return reply({});
    if (outcome === 'finished')
      return fail(-32602, `Cannot cancel task ${taskId}: it is already ${statusOf(found)}`);
    const view = (await jobs.view(taskId, caller.client)) ?? found;
    return era === 'legacy' ? reply(legacyTask(view, parts)) : reply({});
  }
  // tasks/result (2025-11-25): waits for the end, then the call's own result.
  const done = await waitForEnd(jobs, taskId, caller.client, found);
  if (statusOf(done) === 'cancelled') return fail(-32602, `Task ${taskId} was cancelled`);
  const result = resultOf(done);
  if (!result) return fail(-32603, `Task ${taskId} has not ended yet; ask again`);
  const meta = { ...(isObject(result._meta) ? result._meta : {}), [RELATED_TASK]: { taskId } };
  return reply({ ...result, _meta: meta });
}

/** A job made by a task (jobs of the HTTP door are not tasks). */
function isTask(view: JobView): boolean {
  return view.task === true;
}

/** The task's status: a run that ended, refused or not, is `completed` (its result says isError); a job that could not run is `failed`. */
function statusOf(view: JobView): 'working' | 'completed' | 'failed' | 'cancelled' {
  if (view.state === 'cancelled') return 'cancelled';
  if (view.state === 'queued' || view.state === 'running') return 'working';
  return isObject(view.answer?.body) && 'content' in view.answer.body ? 'completed' : 'failed';
}

function resultOf(view: JobView): Record<string, unknown> | null {
  const body = view.answer?.body;
  if (isObject(body) && 'content' in body) return body;
  if (statusOf(view) !== 'failed') return null;
  const text = JSON.stringify(
    body ?? { ok: false, error: 'the task could not be run', errorCode: 'INTERNAL_ERROR' },
  );
  return { content: [{ type: 'text', text }], isError: true };
}

const updatedAt = (v: JobView) => v.finishedAt ?? v.startedAt ?? v.createdAt;

function legacyTask(view: JobView, parts: McpParts) {
  const status = statusOf(view);
  return {
    taskId: view.id,
    status,
    createdAt: view.createdAt,
    lastUpdatedAt: updatedAt(view),
    ttl: parts.taskTtlMs,
    pollInterval: POLL_MS,
    ...(status === 'working' ? { statusMessage: view.state } : {}),
  };
}

/** The 2026-07-28 shape of the same task: the extension renames `ttl` and `pollInterval`. */
function modernTask(view: JobView, parts: McpParts) {
  const { ttl, pollInterval, ...rest } = legacyTask(view, parts);
  return { ...rest, ttlMs: ttl, pollIntervalMs: pollInterval };
}

/** A 2026-07-28 task with what it came to: `result` once completed, `error` once failed. */
function detailedTask(view: JobView, parts: McpParts) {
  const task: Record<string, unknown> = { ...modernTask(view, parts) };
  if (task.status === 'completed') task.result = { ...resultOf(view), resultType: 'complete' };
  if (task.status === 'failed') task.error = { code: -32603, message: 'the task could not be run' };
  return task;
}

async function waitForEnd(jobs: JobQueue, id: string, owner: string, first: JobView): Promise<JobView> {
  let view = first;
  const until = Date.now() + RESULT_WAIT_MS;
  while (statusOf(view) === 'working' && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    view = (await jobs.view(id, owner)) ?? view;
  }
  return view;
}

function answer(
  parts: McpParts,
  era: Era,
  id: string | number,
  result: Record<string, unknown>,
): DirectAnswer {
  const rpcId = JSON.stringify(id);
  if (era === 'legacy') {
    const data = JSON.stringify({ result, jsonrpc: '2.0', id });
    return { status: 200, headers: SSE_HEADERS, body: `event: message\ndata: ${data}\n\n` };
  }
  const meta = { ...(isObject(result._meta) ? result._meta : {}), [SERVER_INFO_META_KEY]: parts.identity };
  const body = { ...result, _meta: meta, ...('resultType' in result ? {} : { resultType: 'complete' }) };
  return {
    status: 200,
    headers: JSON_HEADERS,
    body: `{"result":${JSON.stringify(body)},"jsonrpc":"2.0","id":${rpcId}}`,
  };
}

function rpcError(era: Era, id: string | number, code: number, message: string): DirectAnswer {
  const data = JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });
  return era === 'legacy'
    ? { status: 200, headers: SSE_HEADERS, body: `event: message\ndata: ${data}\n\n` }
    : { status: 200, headers: JSON_HEADERS, body: data };
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };
const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * The era of a task message: 2025-11-25 by its header, or 2026-07-28 by its header with the
 * standard headers naming what the body does (SEP-2243; `Mcp-Name` is the taskId on the
 * task methods). Anything else is not ours to answer.
 */
function eraOf(headers: DirectRequest['headers'], message: Message): Era | null {
  const version = headers['mcp-protocol-version'];
  const accept = headers.accept;
  if (typeof accept !== 'string' || !accept.includes('application/json')) return null;
  if (version === LEGACY) return accept.includes('text/event-stream') ? 'legacy' : null;
  if (version !== MODERN || headers['mcp-method'] !== message.method) return null;
  const named = message.method === 'tools/call' ? message.params.name : message.params.taskId;
  return headers['mcp-name'] === named ? 'modern' : null;
}

function declaresTasks(params: Record<string, unknown>): boolean {
  const meta = params._meta;
  if (!isObject(meta)) return false;
  const caps = meta[CLIENT_CAPABILITIES];
  return isObject(caps) && isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]);
}

function messageOf(body: unknown): Message | null {
  if (!isObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return null;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return null;
  if (params !== undefined && !isObject(params)) return null;
  return {
    id: id as string | number,
    method: body.method,
    params: (params ?? {}) as Record<string, unknown>,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
