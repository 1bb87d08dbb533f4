/**
 * The per-run state both sides of the thread boundary share, one slot per run in flight.
 * Runs cross to a worker in batches (src/pool/batcher.ts); each run of a batch keeps its
 * own slot, so its deadline starts when the worker starts *it*, and the API thread can
 * take back a run that a stuck batch-mate keeps waiting (compare-and-swap, so a run is
 * either started by the worker or taken back, never both).
 *
 * `state[slot]` is `tag(batch, phase)`; 0 means the slot belongs to no batch.
 * `startedAt[slot]` is Date.now() when the worker started the run (0: not yet).
 */
export const ASSIGNED = 1;
export const RUNNING = 2;
export const DONE = 3;

/** Batch ids wrap below 2^29 so that a tag fits in an Int32 with its 2-bit phase. */
export const MAX_BATCH_ID = 2 ** 29 - 1;

export function tag(batch: number, phase: typeof ASSIGNED | typeof RUNNING | typeof DONE): number {
  return (batch << 2) | phase;
}

export interface SharedSlots {
  /** Int32Array: `tag(batch, phase)` per slot. */
  state: SharedArrayBuffer;
  /** BigInt64Array: start time per slot, ms since the epoch. */
  startedAt: SharedArrayBuffer;
}

export function sharedSlots(capacity: number): SharedSlots {
  return {
    state: new SharedArrayBuffer(capacity * Int32Array.BYTES_PER_ELEMENT),
    startedAt: new SharedArrayBuffer(capacity * BigInt64Array.BYTES_PER_ELEMENT),
  };
}
