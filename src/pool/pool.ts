import { setFlagsFromString } from 'node:v8';
import { Piscina } from 'piscina';
import { workerFile } from '../paths.js';
import type { PoolWorkerData, RunEnvelope, RunTask } from '../shared/envelope.js';
import type { ToolInput } from '../shared/tool-def.js';
import { Deadlines } from './deadlines.js';
import { FairShare } from './fair-share.js';
import { failureOf, outcomeOf, type RunOutcome } from './outcome.js';

export interface PoolOptions {
  threads: number;
  maxQueue: number;
  queueWaitMs: number;
  heapMb: number;
  resultMaxBytes: number;
  /** toolId → run module path. */
  tools: Record<string, string>;
}

// Process-wide V8 flag (workers share it): a regex that backtracks too much falls back
// to V8's linear-time engine. It does not cover `u`-flag patterns or backreferences,
// so the deadline stays the last line (PERFORMANCE.md).
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/**
 * The Piscina pool of worker threads. Runs never execute on the API thread. Capacity
 * is `threads + maxQueue` slots: past it a run is refused at once (CONCURRENCY_LIMIT,
 * 503) instead of growing a queue nobody will wait for.
 */
export class ToolPool {
  readonly piscina: Piscina<RunTask, RunEnvelope>;
  private readonly deadlines: Deadlines;
  private readonly freeSlots: number[];
  private readonly opts: PoolOptions;
  readonly fair: FairShare;
  private initialWorkers: number;
  /** Workers created after the first ones: replacements of terminated or dead workers. */
  restarts = 0;
  onRestart: () => void = () => {};
  onError: (err: unknown) => void = () => {};

  constructor(opts: PoolOptions) {
    this.opts = opts;
    const capacity = opts.threads + opts.maxQueue;
    const clock = new SharedArrayBuffer(capacity * BigInt64Array.BYTES_PER_ELEMENT);
    this.deadlines = new Deadlines(clock, opts.queueWaitMs);
    this.freeSlots = Array.from({ length: capacity }, (_, i) => capacity - 1 - i);
    this.initialWorkers = opts.threads;
    this.fair = new FairShare(opts.threads);
    const workerData: PoolWorkerData = { tools: opts.tools, clock };
    this.piscina = new Piscina<RunTask, RunEnvelope>({
      filename: workerFile,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      idleTimeout: Number.MAX_SAFE_INTEGER,
      maxQueue: capacity,
      concurrentTasksPerWorker: 1,
      resourceLimits: {
        maxOldGenerationSizeMb: opts.heapMb,
        maxYoungGenerationSizeMb: Math.min(64, opts.heapMb / 4),
      },
      workerData,
    });
    // A worker that fails to start must not take the process down: log-worthy, and the
    // pool replaces it; a run it held is rejected and mapped like any other failure.
    this.piscina.on('error', (err) => this.onError(err));
    this.piscina.on('workerCreate', () => {
      if (this.initialWorkers > 0) this.initialWorkers--;
      else {
        this.restarts++;
        this.onRestart();
      }
    });
  }

  /**
   * Resolves when every worker has loaded its tools, so the first runs' queue wait
   * does not include start-up (readiness means the pool can serve).
   */
  async warmUp(): Promise<void> {
    const task: RunTask = { toolId: '', mode: '', input: {}, slot: 0, resultMaxBytes: 0, warmup: true };
    await Promise.all(Array.from({ length: this.opts.threads }, () => this.piscina.run(task)));
  }

  async run(toolId: string, mode: string, input: ToolInput, timeoutMs: number): Promise<RunOutcome> {
    const slot = this.freeSlots.pop();
    if (slot === undefined) {
      return failureOf('CONCURRENCY_LIMIT', 'the instance is at capacity: the run queue is full', 0, 0, 503);
    }
    const entry = this.deadlines.track(slot, timeoutMs);
    const task: RunTask = { toolId, mode, input, slot, resultMaxBytes: this.opts.resultMaxBytes };
    let held = false;
    let outcome: RunOutcome | undefined;
    try {
      const admitted = this.fair.acquire(toolId, entry.controller.signal);
      held = admitted === true || (await admitted);
      if (!held) throw new Error('aborted while waiting for a fair share');
      const envelope = await this.piscina.run(task, { signal: entry.controller.signal });
      outcome = outcomeOf(envelope, this.queuedMs(slot, entry.enqueuedAt));
      return outcome;
    } catch (err) {
      outcome = outcomeOf(err, this.queuedMs(slot, entry.enqueuedAt), {
        reason: entry.reason,
        timeoutMs,
        queueWaitMs: this.opts.queueWaitMs,
        heapMb: this.opts.heapMb,
        startedAt: this.deadlines.startedAt(slot),
      });
      return outcome;
    } finally {
      if (held) this.fair.release(toolId, outcome?.durationMs ?? 0);
      this.deadlines.untrack(slot);
      this.freeSlots.push(slot);
    }
  }

  private queuedMs(slot: number, enqueuedAt: number): number {
    const started = this.deadlines.startedAt(slot);
    return started === 0 ? Date.now() - enqueuedAt : Math.max(0, started - enqueuedAt);
  }

  stats(): { threads: number; queueSize: number; utilization: number; capacity: number; inUse: number } {
    const capacity = this.opts.threads + this.opts.maxQueue;
    return {
      threads: this.piscina.threads.length,
      queueSize: this.fair.queued + this.piscina.queueSize,
      utilization: this.piscina.utilization,
      capacity,
      inUse: capacity - this.freeSlots.length,
    };
  }

  /** Waits for queued and running runs to finish, then stops the workers. */
  async close(): Promise<void> {
    await this.piscina.close();
  }
}
