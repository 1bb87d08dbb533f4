/**
 * The per-run state the API thread and the workers share, one cell per run in flight,
 * and every transition of it, for both sides. Runs cross to a worker in batches; each
 * run keeps its own cell, so its deadline starts when the worker starts *it*, and the API
 * thread can take back a run that a slow batch-mate keeps waiting (compare-and-swap: a
 * run is either started by the worker or taken back, never both).
 *
 *   API: assign(batch) ──► ASSIGNED ──worker: claim()──► RUNNING ──worker: finish()──► DONE
 *                              └──API: takeBack()──► free          API: clear() ──► free
 *
 * `state[cell]` is `tag(batch, phase)` (0: free); `startedAt[cell]` is when the worker
 * started the run (ms since the epoch, 0: not yet); `tid[cell]` is the kernel thread id of
 * the worker running it (for the API thread to lower that thread's priority when the run
 * holds its worker too long); `priority[cell]` is NORMAL, FIRST_RUN (the worker's first
 * run of its tool, which may include the tool's lazy set-up, such as building a
 * tokenizer's tables: the API thread gives those longer before lowering them) or LOWERED
 * (the API thread lowered the thread's priority; the worker restores it after the run).
 */
const ASSIGNED = 1;
const RUNNING = 2;
const DONE = 3;
const NORMAL = 0;
const LOWERED = 1;
const FIRST_RUN = 2;
type PhaseBits = typeof ASSIGNED | typeof RUNNING | typeof DONE;

/** Batch ids wrap below 2^29 so that a tag fits in an Int32 with its 2-bit phase. */
export const MAX_BATCH_ID = 2 ** 29 - 1;

export type Phase = 'assigned' | 'running' | 'done' | null;

/** The cell memory: the SharedArrayBuffers themselves, plain data sent to each worker in its workerData. */
export interface CellMemory {
  state: SharedArrayBuffer;
  startedAt: SharedArrayBuffer;
  tid: SharedArrayBuffer;
  priority: SharedArrayBuffer;
}

export function cellMemory(capacity: number): CellMemory {
  return {
    state: new SharedArrayBuffer(capacity * 4),
    startedAt: new SharedArrayBuffer(capacity * 8),
    tid: new SharedArrayBuffer(capacity * 4),
    priority: new SharedArrayBuffer(capacity * 4),
  };
}

function tag(batch: number, phase: PhaseBits): number {
  return (batch << 2) | phase;
}

export class RunCells {
  private readonly state: Int32Array;
  private readonly started: BigInt64Array;
  private readonly tids: Int32Array;
  private readonly priority: Int32Array;

  constructor(memory: CellMemory) {
    this.state = new Int32Array(memory.state);
    this.started = new BigInt64Array(memory.startedAt);
    this.tids = new Int32Array(memory.tid);
    this.priority = new Int32Array(memory.priority);
  }

  // ── API thread ──

  assign(cell: number, batch: number): void {
    Atomics.store(this.started, cell, 0n);
    Atomics.store(this.tids, cell, 0);
    Atomics.store(this.priority, cell, NORMAL);
    Atomics.store(this.state, cell, tag(batch, ASSIGNED));
  }

  /** Takes a run back from its batch if the worker has not started it. */
  takeBack(cell: number, batch: number): boolean {
    return Atomics.compareExchange(this.state, cell, tag(batch, ASSIGNED), 0) === tag(batch, ASSIGNED);
  }

  clear(cell: number): void {
    Atomics.store(this.state, cell, 0);
  }

  phase(cell: number, batch: number): Phase {
    const value = Atomics.load(this.state, cell);
    if (value === tag(batch, RUNNING)) return 'running';
    if (value === tag(batch, DONE)) return 'done';
    if (value === tag(batch, ASSIGNED)) return 'assigned';
    return null;
  }

  /** When the worker started the run in `cell` (ms since the epoch), or 0. */
  startedAt(cell: number): number {
    return Number(Atomics.load(this.started, cell));
  }

  /** The kernel thread id of the worker running `cell`, or 0. */
  threadOf(cell: number): number {
    return Atomics.load(this.tids, cell);
  }

  /** True when the run in `cell` is its worker's first run of the tool. */
  firstRun(cell: number): boolean {
    return Atomics.load(this.priority, cell) === FIRST_RUN;
  }

  /** Claims the right to lower the priority of the thread running `cell` (once); the worker restores it. */
  lower(cell: number): boolean {
    const now = Atomics.load(this.priority, cell);
    return now !== LOWERED && Atomics.compareExchange(this.priority, cell, now, LOWERED) === now;
  }

  // ── worker ──

  /** Starts the run if it is still assigned to `batch` (false: the API thread took it back). */
  claim(cell: number, batch: number, tid: number, firstRun: boolean): boolean {
    const assigned = tag(batch, ASSIGNED);
    if (firstRun) Atomics.store(this.priority, cell, FIRST_RUN);
    if (Atomics.compareExchange(this.state, cell, assigned, tag(batch, RUNNING)) !== assigned) return false;
    Atomics.store(this.tids, cell, tid);
    Atomics.store(this.started, cell, BigInt(Date.now()));
    return true;
  }

  /** Ends the run; true when its thread's priority was lowered meanwhile. */
  finish(cell: number, batch: number): boolean {
    Atomics.compareExchange(this.state, cell, tag(batch, RUNNING), tag(batch, DONE));
    return Atomics.load(this.priority, cell) === LOWERED;
  }
}
