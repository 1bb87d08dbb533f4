import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import type { PoolWorkerData, RunEnvelope, RunTask } from '../src/shared/envelope.js';
import type { ToolRun } from '../src/shared/tool-def.js';
import { ToolInputError } from '../src/shared/tool-error.js';
import { installNetworkGuard, NetworkDisabledError } from './network-guard.js';

/**
 * The Piscina entry. It imports only the tools' run modules and shared types, never
 * the API process's code. A tool is imported on its first run in this worker, before
 * the run's clock starts, so loading never eats into a deadline (the queue-wait bound
 * covers it); boot-time warm-up loads every tool in the first workers, and a worker
 * that replaces a terminated one loads only what it is asked to run.
 */
const data = workerData as PoolWorkerData;
const clock = new BigInt64Array(data.clock);
installNetworkGuard();

const loading = new Map<string, Promise<ToolRun>>();
/** Loaded tools, read without an await on the hot path. */
const loaded = new Map<string, ToolRun>();
function load(toolId: string): Promise<ToolRun> {
  let run = loading.get(toolId);
  if (!run) {
    const path = data.tools[toolId];
    if (!path) return Promise.reject(new Error(`tool ${toolId} is not registered in this worker`));
    run = import(pathToFileURL(path).href).then((mod: { default: ToolRun }) => {
      loaded.set(toolId, mod.default);
      return mod.default;
    });
    loading.set(toolId, run);
  }
  return run;
}

export default async function runTask(task: RunTask): Promise<RunEnvelope> {
  if (task.warmup) {
    await Promise.all(Object.keys(data.tools).map(load));
    // Held briefly so that concurrent warm-ups land on different workers.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { ok: true, json: 'null', durationMs: 0 };
  }
  let run = loaded.get(task.toolId);
  if (!run) {
    try {
      run = await load(task.toolId);
    } catch (err) {
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      return { ok: false, code: 'INTERNAL_ERROR', message: 'internal error', durationMs: 0, detail };
    }
  }
  Atomics.store(clock, task.slot, BigInt(Date.now()));
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const json = JSON.stringify(await run(task.input, task.mode));
    if (json === undefined) throw new Error(`tool ${task.toolId} returned no JSON value`);
    // UTF-16 length bounds the UTF-8 size from below and 3x from above: measure only when it matters.
    if (json.length * 3 > task.resultMaxBytes && Buffer.byteLength(json) > task.resultMaxBytes) {
      return {
        ok: false,
        code: 'BUDGET_EXCEEDED',
        message: `the result is larger than the limit of ${task.resultMaxBytes} bytes`,
        durationMs: elapsed(),
      };
    }
    return { ok: true, json, durationMs: elapsed() };
  } catch (err) {
    if (err instanceof ToolInputError)
      return { ok: false, code: err.code, message: err.message, durationMs: elapsed() };
    if (err instanceof NetworkDisabledError) {
      return { ok: false, code: 'INTERNAL_ERROR', message: err.message, durationMs: elapsed() };
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    return { ok: false, code: 'INTERNAL_ERROR', message: 'internal error', durationMs: elapsed(), detail };
  }
}
