import type { WorkerBatch } from './lane.js';

/**
 * What the scheduler asks of the worker threads, applied by the executor (src/pool/pool.ts,
 * over Piscina) or by a test's fake workers. A batch sent ends in the scheduler's
 * `finished` or `failed`.
 */
export interface WorkerPort {
  /** Starts `batch` on a worker of its lane. */
  send(batch: WorkerBatch): void;
  /** Terminates the worker of `batch` (a run passed its deadline): the batch then fails. */
  abort(batch: WorkerBatch): void;
  /** Lowers the CPU priority of thread `tid`; false when it could not. */
  lower(tid: number): boolean;
  /** CPU time thread `tid` has had (ms); null: unknown. */
  cpuMs(tid: number): number | null;
}
