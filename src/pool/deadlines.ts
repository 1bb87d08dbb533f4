/**
 * Deadlines of queued and running runs, checked by one sweeping timer instead of a
 * timer per run. The execution deadline starts when the worker stamps the run's slot
 * in the shared clock, not when it was queued (PERFORMANCE.md: otherwise good runs
 * time out behind bad ones); the queue wait has its own bound.
 */
export type AbortReason = 'timeout' | 'queue-wait';

interface Entry {
  controller: AbortController;
  enqueuedAt: number;
  timeoutMs: number;
  reason: AbortReason | null;
}

export class Deadlines {
  private readonly entries = new Map<number, Entry>();
  private readonly clock: BigInt64Array;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly queueWaitMs: number,
    private readonly tickMs = 10,
  ) {
    this.clock = new BigInt64Array(buffer);
  }

  track(slot: number, timeoutMs: number): Entry {
    Atomics.store(this.clock, slot, 0n);
    const entry: Entry = {
      controller: new AbortController(),
      enqueuedAt: Date.now(),
      timeoutMs,
      reason: null,
    };
    this.entries.set(slot, entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
    return entry;
  }

  /** When the worker started the run (ms since epoch), or 0 if it has not. */
  startedAt(slot: number): number {
    return Number(Atomics.load(this.clock, slot));
  }

  untrack(slot: number): void {
    this.entries.delete(slot);
    if (this.entries.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private sweep(): void {
    const now = Date.now();
    for (const [slot, entry] of this.entries) {
      if (entry.reason) continue;
      const started = this.startedAt(slot);
      if (started === 0) {
        if (now - entry.enqueuedAt > this.queueWaitMs) this.abort(entry, 'queue-wait');
      } else if (now - started > entry.timeoutMs) {
        this.abort(entry, 'timeout');
      }
    }
  }

  private abort(entry: Entry, reason: AbortReason): void {
    entry.reason = reason;
    entry.controller.abort();
  }
}
