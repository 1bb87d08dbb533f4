import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Heap a worker may have grown by since its last collection before it collects once its
 * batch is answered. A heavy run (a 0.5 MB document converted) leaves 50-70 MiB of garbage
 * that V8 would keep until the worker next allocates, in every worker that ran one: the
 * pool's resident memory then grew with the workers that had ever run heavy work, not with
 * the work in flight (docs/operations.md, "Memory admission"). Cheap runs rarely reach it.
 */
const GROWTH_BYTES = 32 * 1024 * 1024;

/**
 * V8's gc() for this thread: its flag is process-wide, and only contexts made after it is
 * set get the function, so a fresh context hands it over. Tools never see it (it is not a
 * global of the worker). Null where the runtime refuses it: the worker then never collects.
 */
const collect = ((): (() => void) | null => {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
})();

let baseline = getHeapStatistics().used_heap_size;
let pending = false;

/**
 * Called when a batch has run: when the heap has grown by GROWTH_BYTES since the last
 * collection, collect right after the answers have been posted (setImmediate), so the
 * garbage of the batch is freed while the worker waits, and no answer waits for it.
 */
export function releaseHeapSoon(): void {
  if (collect === null || pending || getHeapStatistics().used_heap_size < baseline + GROWTH_BYTES) return;
  pending = true;
  setImmediate(() => {
    pending = false;
    collect();
    baseline = getHeapStatistics().used_heap_size;
  });
}
