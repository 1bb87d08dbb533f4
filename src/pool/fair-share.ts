/**
 * Decides when a run may go to a worker. At most `threads` runs are in the pool at once
 * (Piscina's own FIFO queue stays empty), so waiting runs are ordered here, where a
 * slow tool can be passed over: a tool whose recent runs are slow (an exponentially
 * weighted mean above `slowMs`, e.g. catastrophic regexes timing out; a tool with no
 * history yet counts as slow until it proves fast) may hold at most `threads - 1`
 * workers, so one worker stays free for every other tool. Hand-written: Piscina has
 * one FIFO queue and no notion of task classes.
 */
interface ToolShare {
  executing: number;
  meanMs: number;
}

interface Waiter {
  toolId: string;
  wake: () => void;
}

export class FairShare {
  private readonly tools = new Map<string, ToolShare>();
  private readonly waiting: Waiter[] = [];
  private inPool = 0;

  constructor(
    private readonly threads: number,
    private readonly slowMs = 50,
  ) {}

  private share(toolId: string): ToolShare {
    let s = this.tools.get(toolId);
    if (!s) {
      s = { executing: 0, meanMs: this.slowMs * 2 };
      this.tools.set(toolId, s);
    }
    return s;
  }

  private allowed(s: ToolShare): boolean {
    const cap = this.threads > 1 && s.meanMs > this.slowMs ? this.threads - 1 : this.threads;
    return s.executing < cap;
  }

  /** Resolves true when the run may go to the pool, false if `signal` aborted while it waited. */
  acquire(toolId: string, signal: AbortSignal): Promise<boolean> | true {
    const s = this.share(toolId);
    if (this.inPool < this.threads && this.allowed(s) && !this.waiting.some((w) => w.toolId === toolId)) {
      this.take(s);
      return true;
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        toolId,
        wake: () => {
          signal.removeEventListener('abort', onAbort);
          this.take(s);
          resolve(true);
        },
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        resolve(false);
      };
      this.waiting.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  release(toolId: string, durationMs: number): void {
    const s = this.share(toolId);
    s.executing--;
    this.inPool--;
    s.meanMs = s.meanMs * 0.8 + durationMs * 0.2;
    this.pump();
  }

  /** Wakes the oldest waiters whose tool may take a worker, while workers are free. */
  private pump(): void {
    for (let i = 0; i < this.waiting.length && this.inPool < this.threads; ) {
      const w = this.waiting[i]!;
      if (this.allowed(this.share(w.toolId))) {
        this.waiting.splice(i, 1);
        w.wake();
      } else {
        i++;
      }
    }
  }

  private take(s: ToolShare): void {
    s.executing++;
    this.inPool++;
  }

  /** Runs waiting for a worker (the queue depth). */
  get queued(): number {
    return this.waiting.length;
  }
}
