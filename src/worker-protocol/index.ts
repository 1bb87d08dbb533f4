/**
 * The worker protocol: what crosses the thread boundary between the pool (src/pool/) and
 * the Piscina entry (workers/tool-worker.ts), imported there as `#worker-protocol`
 * (package.json `imports`; docs/architecture.md, "Boundaries"): the batch and its
 * envelopes (plain data), the run cells, and the heap release after a batch.
 */
export type {
  BatchAnswer,
  PoolWorkerData,
  RunBatch,
  RunEnvelope,
  RunItem,
  WorkerErrorCode,
} from '../shared/envelope.js';
export { NETWORK_DISABLED_MESSAGE } from '../shared/envelope.js';
export { releaseHeapSoon } from '../shared/heap-release.js';
export { type CellMemory, RunCells } from '../shared/run-cells.js';
