import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Piscina } from 'piscina';
import { workerEntry, workerFile } from '../paths.js';
import type { BatchAnswer, PoolWorkerData, RunBatch } from '../shared/envelope.js';

export interface WorkersOptions {
  /** Workers kept up at all times (a lane's active workers and its warm spare: src/pool/lane.ts). */
  min: number;
  /** Most workers at once: with overflow for held runs. */
  max: number;
  heapMb: number;
  /** PoolTuning.youngGenerationMb (at most a quarter of the heap). */
  youngGenerationMb: number;
  /** PoolTuning.idleTimeoutMs: idle workers above `min` leave after it. */
  idleTimeoutMs: number;
  /** What each worker reads (its entry, which workers/entry.cjs imports, is added here). */
  workerData: Omit<PoolWorkerData, 'entry'>;
  onError: (err: unknown) => void;
}

/**
 * The worker threads of one lane: one Piscina instance holding `min` workers at all
 * times, growing to `max` while runs are held. Workers start without their tools (they
 * load each on first use), so a new one is ready in milliseconds.
 */
export class Workers {
  readonly piscina: Piscina<RunBatch, BatchAnswer>;
  readonly max: number;
  private readonly min: number;

  constructor(opts: WorkersOptions) {
    this.min = opts.min;
    this.max = opts.max;
    this.piscina = new Piscina<RunBatch, BatchAnswer>({
      filename: workerFile,
      minThreads: this.min,
      maxThreads: this.max,
      idleTimeout: opts.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.heapMb,
        maxYoungGenerationSizeMb: Math.min(opts.youngGenerationMb, opts.heapMb / 4),
      },
      workerData: { entry: workerEntry, ...opts.workerData } satisfies PoolWorkerData,
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
 * Lowers the CPU priority of the thread `tid` (a worker whose run is held) to `nice`
 * (Linux; elsewhere ignored), so that runaway runs take only CPU the active workers leave.
 * setpriority() on a thread id applies to that thread alone on Linux; Node's
 * os.setPriority passes the id through. Done from the API thread, not by the worker: the
 * worker is busy with the run. Best effort.
 */
export function lowerPriority(tid: number, nice: number): boolean {
  if (tid <= 0) return false;
  try {
    setPriority(tid, nice);
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
