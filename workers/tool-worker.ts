import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import type { BatchAnswer, PoolWorkerData, RunBatch, RunEnvelope, RunItem } from '../src/shared/envelope.js';
import { ASSIGNED, DONE, RUNNING, tag } from '../src/shared/slot-state.js';
import type { ToolRun } from '../src/shared/tool-def.js';
import { ToolInputError } from '../src/shared/tool-error.js';
import { installNetworkGuard, NetworkDisabledError } from './network-guard.js';

/**
 * The Piscina entry. It imports only the tools' run modules and shared types, never
 * the API process's code. A task is a batch of runs (src/shared/envelope.ts), run in
 * order. Every tool is imported before this module finishes loading, and Piscina marks
 * a worker ready only then: a worker that replaces a terminated one takes no run until
 * it can start it at once, and loading never eats into a run's deadline.
 */
const data = workerData as PoolWorkerData;
const state = new Int32Array(data.slots.state);
const startedAt = new BigInt64Array(data.slots.startedAt);
installNetworkGuard();
if (data.nice !== 0) lowerOwnPriority(data.nice);

/** Tools this worker has run at least once (their first run may include lazy set-up). */
const ran = new Set<string>();
/** Each tool's run function, or why it could not be loaded (reported per run, not fatal). */
const loaded = new Map<string, ToolRun | { error: unknown }>();
await Promise.all(
  Object.entries(data.tools).map(async ([toolId, path]) => {
    try {
      const mod = (await import(pathToFileURL(path).href)) as { default: ToolRun };
      loaded.set(toolId, mod.default);
    } catch (error) {
      loaded.set(toolId, { error });
    }
  }),
);

export default async function runBatch(task: RunBatch): Promise<BatchAnswer> {
  if (task.warmup) {
    // Held briefly so that concurrent warm-ups land on different workers.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return [];
  }
  const answers: BatchAnswer = [];
  for (const item of task.items) {
    // Claim the run: fails when the API thread took it back while a batch-mate was slow.
    const assigned = tag(task.batch, ASSIGNED);
    if (Atomics.compareExchange(state, item.slot, assigned, tag(task.batch, RUNNING)) !== assigned) {
      answers.push(null);
      continue;
    }
    Atomics.store(startedAt, item.slot, BigInt(Date.now()));
    const run = loaded.get(item.toolId) ?? { error: new Error(`tool ${item.toolId} is not in this worker`) };
    const first = !ran.has(item.toolId);
    ran.add(item.toolId);
    const envelope =
      typeof run === 'function' ? await runOne(run, item, task.resultMaxBytes) : failure(run.error, 0);
    answers.push(first ? { ...envelope, first: true } : envelope);
    Atomics.compareExchange(state, item.slot, tag(task.batch, RUNNING), tag(task.batch, DONE));
  }
  return answers;
}

async function runOne(run: ToolRun, item: RunItem, resultMaxBytes: number): Promise<RunEnvelope> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  try {
    const json = JSON.stringify(await run(item.input, item.mode));
    if (json === undefined) throw new Error(`tool ${item.toolId} returned no JSON value`);
    // UTF-16 length bounds the UTF-8 size from below and 3x from above: measure only when it matters.
    if (json.length * 3 > resultMaxBytes && Buffer.byteLength(json) > resultMaxBytes) {
      return {
        ok: false,
        code: 'BUDGET_EXCEEDED',
        message: `the result is larger than the limit of ${resultMaxBytes} bytes`,
        durationMs: elapsed(),
      };
    }
    return { ok: true, json, durationMs: elapsed() };
  } catch (err) {
    return failure(err, elapsed());
  }
}

/**
 * Gives this thread (not the process) a nice value, before the tools load, so the start
 * of a slow-lane worker is low priority too. Linux: setpriority() on a thread id applies
 * to that thread alone, and /proc/thread-self names it. Elsewhere, or when refused, the
 * lane still isolates slow runs; only the priority is missing.
 */
function lowerOwnPriority(nice: number): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // not Linux, or not allowed: run at normal priority
  }
}

function failure(err: unknown, durationMs: number): RunEnvelope {
  if (err instanceof ToolInputError) return { ok: false, code: err.code, message: err.message, durationMs };
  if (err instanceof NetworkDisabledError) {
    return { ok: false, code: 'INTERNAL_ERROR', message: err.message, durationMs };
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return { ok: false, code: 'INTERNAL_ERROR', message: 'internal error', durationMs, detail };
}
