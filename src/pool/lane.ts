import { Piscina } from 'piscina';
import { workerFile } from '../paths.js';
import type { BatchAnswer, PoolWorkerData, RunBatch } from '../shared/envelope.js';
import type { InFlightBatch } from './deadlines.js';

export type LaneKind = 'fast' | 'slow';

export interface LaneOptions {
  kind: LaneKind;
  /** Batches on the lane's workers at once. */
  capacity: number;
  /** Warm workers beyond `capacity`, ready to take over from a terminated one. */
  spare: number;
  heapMb: number;
  workerData: PoolWorkerData;
  onRestart: () => void;
  onError: (err: unknown) => void;
}

/**
 * One lane of the pool: a Piscina instance with its own workers. The fast lane runs the
 * batches of fast tools at normal priority; the slow lane runs slow tools one run at a
 * time on workers that lower their own CPU priority (`workerData.nice`), so a runaway
 * run, and the start of the worker replacing it, get only CPU that nothing else wants.
 */
export class Lane {
  readonly kind: LaneKind;
  readonly capacity: number;
  readonly piscina: Piscina<RunBatch, BatchAnswer>;
  readonly inPool = new Set<InFlightBatch>();
  private readonly workers: number;
  private initialWorkers: number;

  constructor(opts: LaneOptions) {
    this.kind = opts.kind;
    this.capacity = opts.capacity;
    this.workers = opts.capacity + opts.spare;
    this.initialWorkers = this.workers;
    this.piscina = new Piscina<RunBatch, BatchAnswer>({
      filename: workerFile,
      minThreads: this.workers,
      maxThreads: this.workers,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.heapMb,
        maxYoungGenerationSizeMb: Math.min(64, opts.heapMb / 4),
      },
      workerData: opts.workerData,
    });
    // A worker that fails to start must not take the process down: it is logged, the
    // pool replaces it, and a batch it held is rejected and mapped like any other failure.
    this.piscina.on('error', opts.onError);
    this.piscina.on('workerCreate', () => {
      if (this.initialWorkers > 0) this.initialWorkers--;
      else opts.onRestart();
    });
  }

  get free(): boolean {
    return this.inPool.size < this.capacity;
  }

  /** Resolves when every worker of the lane has loaded its tools. */
  async warmUp(): Promise<void> {
    const task: RunBatch = { batch: 0, items: [], resultMaxBytes: 0, warmup: true };
    await Promise.all(Array.from({ length: this.workers }, () => this.piscina.run(task)));
  }
}
