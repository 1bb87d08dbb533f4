import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { workerFile } from '../paths.js';
import type { BatchAnswer, PoolWorkerData, RunBatch } from '../shared/envelope.js';

export interface WorkersOptions {
  /** Active workers: batches that run at normal priority at once (POOL_THREADS). */
  threads: number;
  /** Extra workers for held runs (POOL_OVERFLOW_THREADS). */
  overflow: number;
  heapMb: number;
  idleTimeoutMs: number;
  workerData: PoolWorkerData;
  onError: (err: unknown) => void;
}

/**
 * Young generation of each worker. A worker keeps its young generation's pages committed
 * between runs, so after heavy runs every worker of the pool holds it: at 64 MiB, five
 * concurrent 4 MB batches of conversions left ~57 MiB more per worker resident than at
 * 16 MiB, with no slower runs (docs/operations.md, "Memory admission").
 */
const YOUNG_GENERATION_MB = 16;

/** Nice value given to the thread of a held run (Linux: lower CPU priority; elsewhere ignored). */
const HELD_NICE = 10;

/**
 * The worker threads: one Piscina instance holding `threads` active workers plus one warm
 * spare at all times, growing by up to `overflow` workers while runs are held (idle extra
 * workers leave after `idleTimeoutMs`). Workers start without their tools (they load each
 * on first use), so a new one is ready in milliseconds.
 */
export class Workers {
  readonly piscina: Piscina<RunBatch, BatchAnswer>;
  /** Most workers at once: active, spare and overflow. */
  readonly max: number;
  private readonly min: number;

  constructor(opts: WorkersOptions) {
    this.min = opts.threads + 1;
    this.max = this.min + opts.overflow;
    this.piscina = new Piscina<RunBatch, BatchAnswer>({
      filename: workerFile,
      minThreads: this.min,
      maxThreads: this.max,
      idleTimeout: opts.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.heapMb,
        maxYoungGenerationSizeMb: Math.min(YOUNG_GENERATION_MB, opts.heapMb / 4),
      },
      workerData: opts.workerData,
    });
    // A worker that fails to start must not take the process down: it is logged, the
    // pool replaces it, and a batch it held is rejected and mapped like any other failure.
    this.piscina.on('error', opts.onError);
  }

  /** Resolves when the minimum workers are up. */
  async warmUp(): Promise<void> {
    const task: RunBatch = { batch: 0, items: [], resultMaxBytes: 0, warmup: true };
    await Promise.all(Array.from({ length: this.min }, () => this.piscina.run(task)));
  }
}

/**
 * Lowers the CPU priority of the thread `tid` (a worker whose run is held), so that
 * runaway runs take only CPU the active workers leave. setpriority() on a thread id
 * applies to that thread alone on Linux; Node's os.setPriority passes the id through.
 * Done from the API thread, not by the worker: the worker is busy with the run. Best effort.
 */
export function lowerPriority(tid: number): boolean {
  if (tid <= 0) return false;
  try {
    setPriority(tid, HELD_NICE);
    return true;
  } catch {
    return false; // the thread just ended, or not Linux
  }
}

/**
 * CPU time the thread `tid` has had (ms), from /proc/self/task/<tid>/schedstat (Linux);
 * null when it cannot be read (the thread ended, no descriptor left, not Linux).
 */
export function threadCpuMs(tid: number): number | null {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ')[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}
