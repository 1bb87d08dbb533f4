import { readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { workerData } from 'node:worker_threads';
import { inputErrorOf, type ToolPrepare, type ToolRun } from '#tool-kit';
import {
  type BatchAnswer,
  type PoolWorkerData,
  type RunBatch,
  RunCells,
  type RunEnvelope,
  type RunItem,
  releaseHeapSoon,
} from '#worker-protocol';
import { installNetworkGuard, NetworkDisabledError } from './network-guard.js';

/**
 * The Piscina entry. It imports only the tools' run modules, the tool kit and the worker
 * protocol (`#tool-kit`, `#worker-protocol`), never the API process's code. A task is a
 * batch of runs (src/shared/envelope.ts), run in order.
 * A worker starts without its tools and imports each on first use, so a worker (a spare,
 * an overflow worker, the replacement of a terminated one) is ready in milliseconds and
 * spends no CPU on tools it never runs. A run's deadline starts after its tool is loaded
 * and has prepared what this input needs (its run module's optional `prepare` export, e.g.
 * a tokenizer's tables): neither eats into it.
 */
const data = workerData as PoolWorkerData;
const cells = new RunCells(data.cells);
const tid = ownThreadId();
nameThread();
if (data.networkEnabled !== true) installNetworkGuard();

/** Tools this worker has run at least once (their first run may include lazy set-up). */
const ran = new Set<string>();
interface RunModule {
  default: ToolRun;
  prepare?: ToolPrepare;
}

/** Each tool's run module, loading or loaded. A failed load is forgotten (EMFILE passes). */
const modules = new Map<string, Promise<RunModule>>();

function load(toolId: string): Promise<RunModule> {
  let mod = modules.get(toolId);
  if (!mod) {
    const path = data.tools[toolId];
    mod = path
      ? (import(pathToFileURL(path).href) as Promise<RunModule>)
      : Promise.reject(new Error(`tool ${toolId} is not in this worker`));
    modules.set(toolId, mod);
    mod.catch(() => modules.delete(toolId));
  }
  return mod;
}

export default async function runBatch(task: RunBatch): Promise<BatchAnswer> {
  if (task.warmup) {
    // Held briefly so that concurrent warm-ups land on different workers.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return [];
  }
  const answers: BatchAnswer = [];
  for (const item of task.items) {
    let run: ToolRun | { error: unknown };
    try {
      // Loading the module and the tool's own set-up for this input happen before the claim
      // below, where the run's deadline starts: neither ever counts against it.
      const mod = await load(item.toolId);
      // Only tools that have a prepare pay its await (one microtask per run, on the hot path).
      if (mod.prepare) await mod.prepare(item.input, item.mode);
      run = mod.default;
    } catch (error) {
      run = { error };
    }
    // Claim the run: fails when the API thread took it back while a batch-mate was slow.
    const first = !ran.has(item.toolId);
    if (!cells.claim(item.cell, task.batch, tid, first)) {
      answers.push(null);
      continue;
    }
    ran.add(item.toolId);
    const envelope =
      typeof run === 'function' ? await runOne(run, item, task.resultMaxBytes) : failure(run.error, 0);
    answers.push(first ? { ...envelope, first: true } : envelope);
    if (cells.finish(item.cell, task.batch)) restorePriority();
  }
  releaseHeapSoon();
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
        reason: 'resultSize',
      };
    }
    return { ok: true, json, durationMs: elapsed() };
  } catch (err) {
    return failure(err, elapsed());
  }
}

/**
 * This thread's kernel id (Linux: /proc/thread-self names it), shared per run so that the
 * API thread can lower this thread's priority while a run holds it too long; 0 elsewhere.
 */
function ownThreadId(): number {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) && id > 0 ? id : 0;
  } catch {
    return 0;
  }
}

/**
 * Names this OS thread (Linux, 15 characters at most) so that `top -H`, `perf` and the benchmark's
 * CPU-by-thread figures (docs/benchmarks.md) tell pool workers from V8's and libuv's helpers.
 */
function nameThread(): void {
  try {
    writeFileSync('/proc/thread-self/comm', 'toolhub-worker');
  } catch {
    // not Linux, or /proc is read-only: the name is only a convenience
  }
}

/**
 * Back to normal priority after the API thread lowered it for a held run that
 * then ended on its own. Lowering a nice value needs CAP_SYS_NICE (root has it; docs/operations.md
 * says how to grant it to the container); without it the thread stays lower, which only slows
 * the runs it takes next.
 */
function restorePriority(): void {
  try {
    if (tid > 0 && getPriority(tid) !== 0) setPriority(tid, 0);
  } catch {
    // not allowed: stays lowered
  }
}

function failure(err: unknown, durationMs: number): RunEnvelope {
  const refusal = inputErrorOf(err);
  if (refusal) return { ok: false, ...refusal, durationMs };
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EMFILE' || code === 'ENFILE') {
    // Out of descriptors (a connection flood): a refusal to retry, not a bug.
    const message = 'the instance is out of file descriptors; retry shortly';
    return { ok: false, code: 'CONCURRENCY_LIMIT', message, durationMs };
  }
  if (err instanceof NetworkDisabledError) {
    return { ok: false, code: 'INTERNAL_ERROR', message: err.message, durationMs, reason: 'network' };
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return { ok: false, code: 'INTERNAL_ERROR', message: 'internal error', durationMs, detail };
}
