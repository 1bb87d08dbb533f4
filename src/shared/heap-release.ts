import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Heap a thread may have grown by since its last collection before it collects once it is
 * idle (docs/operations.md, "Memory admission"). V8 keeps garbage until the thread
 * allocates again: a worker that converted a 0.5 MB document kept 50-70 MiB of it, every
 * worker that had ever run heavy work kept its share, and the API thread kept the bodies
 * and answers of five 4 MB batch requests (~140 MiB) for 20-40 s. Cheap work rarely reaches it.
 */
const GROWTH_BYTES = 32 * 1024 * 1024;

/**
 * V8's gc() for this thread. Its flag is process-wide and only contexts made after it is
 * set get the function: a fresh context hands it over, and threads started later (the
 * workers) find it on their global, where it is emptied before any tool is loaded.
 * Null where Node refuses it: nothing is then collected early.
 */
const collect = ((): (() => void) | null => {
  try {
    setFlagsFromString('--expose-gc');
    const global = globalThis as { gc?: unknown };
    const gc: unknown = typeof global.gc === 'function' ? global.gc : runInNewContext('gc');
    // V8 makes the property non-configurable but writable: it cannot go, it can be emptied.
    if (global.gc !== undefined) global.gc = undefined;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
})();

let baseline = getHeapStatistics().used_heap_size;
let pending = false;

export interface ReleaseOptions {
  /** Wait this long first (0: right after the current I/O, once answers are posted). */
  delayMs?: number;
  /** Asked when the wait is over: collect only if the thread is still idle. */
  stillIdle?: () => boolean;
}

/**
 * When the heap has grown by GROWTH_BYTES since the last collection, collects once the
 * thread is idle: a worker right after posting its answers (no answer waits for it), the
 * API thread once no request holds memory. One full collection of a heap that is mostly
 * garbage takes 10-40 ms.
 */
export function releaseHeapSoon(opts: ReleaseOptions = {}): void {
  if (collect === null || pending || getHeapStatistics().used_heap_size < baseline + GROWTH_BYTES) return;
  pending = true;
  const run = () => {
    pending = false;
    if (opts.stillIdle && !opts.stillIdle()) return;
    collect();
    baseline = getHeapStatistics().used_heap_size;
  };
  if (opts.delayMs) setTimeout(run, opts.delayMs).unref();
  else setImmediate(run);
}
