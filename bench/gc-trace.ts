/**
 * Bytes allocated on the JavaScript heaps, from `node --trace-gc-nvp` lines on a server's stdout:
 * each collection prints `[pid:0x<isolate>] … allocated=<bytes since the previous one>`. Node
 * exposes no cumulative allocation counter to another process, and a collection every few MB
 * makes the sum exact to one young generation per thread over a run.
 *
 * The main thread's isolate is the first to print: it collects while loading modules, before any
 * pool worker exists. The others are the pool workers' isolates.
 */
const LINE = /^\[\d+:(0x[0-9a-f]+)\].*\ballocated=(\d+)/;

export class GcTrace {
  private readonly allocated = new Map<string, number>();
  private main: string | undefined;

  /** Feeds one stdout line; false when it is not a GC trace line. */
  feed(line: string): boolean {
    const m = LINE.exec(line);
    if (!m) return false;
    const isolate = m[1]!;
    this.main ??= isolate;
    this.allocated.set(isolate, (this.allocated.get(isolate) ?? 0) + Number(m[2]));
    return true;
  }

  snapshot(): { main: number; others: number } {
    let main = 0;
    let others = 0;
    for (const [isolate, bytes] of this.allocated) {
      if (isolate === this.main) main += bytes;
      else others += bytes;
    }
    return { main, others };
  }
}

/** Allocation per good answer, bytes: on the main (API) thread and on the other isolates. */
export interface AllocPerRequest {
  main: number;
  others: number;
}

export function allocPerRequest(
  before: { main: number; others: number },
  after: { main: number; others: number },
  answers: number,
): AllocPerRequest | null {
  if (answers <= 0 || after.main === 0) return null;
  return { main: (after.main - before.main) / answers, others: (after.others - before.others) / answers };
}
