import type { ErrorCode } from '../errors.js';
import type { ErrorReason, RunEnvelope } from '../shared/envelope.js';

/** What a run came to, in the hub's own terms: the one adapter from pool failures to error codes. */
export type RunOutcome =
  | { ok: true; json: string; durationMs: number; queuedMs: number }
  | {
      ok: false;
      code: ErrorCode;
      message: string;
      status?: number;
      durationMs: number;
      queuedMs: number;
      reason?: ErrorReason;
      /** Log-only detail. */
      detail?: string;
    };

/** What the pool knows about the run whose batch failed while it was running. */
export interface FailureContext {
  /** The pool aborted the batch because this run passed its deadline. */
  timedOut: boolean;
  timeoutMs: number;
  heapMb: number;
  /** When its worker started it (ms since the epoch; 0: never started), and the time now. */
  startedAt: number;
  now: number;
}

export function failureOf(
  code: ErrorCode,
  message: string,
  durationMs: number,
  queuedMs: number,
  status?: number,
  detail?: string,
): Extract<RunOutcome, { ok: false }> {
  return {
    ok: false,
    code,
    message,
    durationMs,
    queuedMs,
    ...(status ? { status } : {}),
    ...(detail ? { detail } : {}),
  };
}

/** A worker's envelope for one run → its outcome. */
export function outcomeOf(env: RunEnvelope, queuedMs: number): RunOutcome {
  if (env.ok) return { ok: true, json: env.json, durationMs: env.durationMs, queuedMs };
  // A worker's CONCURRENCY_LIMIT is the instance running short (descriptors): 503.
  const status = env.code === 'CONCURRENCY_LIMIT' ? 503 : undefined;
  const outcome = failureOf(env.code, env.message, env.durationMs, queuedMs, status, env.detail);
  return env.reason ? { ...outcome, reason: env.reason } : outcome;
}

/** The instance is full: no room in the queue, or no worker within the queue-wait bound. */
export function busyOutcome(queuedMs: number, queueWaitMs?: number): RunOutcome {
  const message =
    queueWaitMs === undefined
      ? 'the instance is at capacity: the run queue is full'
      : `no worker was free within ${queueWaitMs} ms; the instance is busy`;
  return failureOf('CONCURRENCY_LIMIT', message, 0, queuedMs, 503);
}

/**
 * Piscina's rejection of a task on a worker it terminates while closing: once one task ends,
 * its close() stops workers whose tasks still run (docs/architecture.md, "Batching and
 * take-back"). Such a run was stopped by the shutdown, not by a bug.
 */
export function stoppedByClose(err: unknown): boolean {
  return (err as { message?: unknown } | undefined)?.message === 'Terminating worker thread';
}

/** A run the pool no longer starts: the instance is shutting down (as src/app.ts answers requests then). */
export function shutdownOutcome(queuedMs: number): RunOutcome {
  return failureOf('CONCURRENCY_LIMIT', 'the instance is shutting down; retry shortly', 0, queuedMs, 503);
}

/**
 * A run that went back to the queue PoolTuning.maxReturns times (src/pool/failed-batch.ts) after batches
 * failed before it started, and whose batch failed again: mapped like the failure itself
 * (a worker out of heap: BUDGET_EXCEEDED; anything else: INTERNAL_ERROR), the tries logged.
 */
export function unstartedRunOutcome(
  err: unknown,
  queuedMs: number,
  tries: number,
  heapMb: number,
): RunOutcome {
  const outcome = failedRunOutcome(err, queuedMs, {
    timedOut: false,
    timeoutMs: 0,
    heapMb,
    startedAt: 0,
    now: 0,
  });
  if (outcome.ok) return outcome;
  const detail = `no worker ran it in ${tries} tries: ${outcome.detail ?? outcome.message}`;
  return { ...outcome, detail };
}

/**
 * A pool rejection (abort at the deadline, worker out of memory, worker crash) → the
 * outcome of the run that was running when its batch failed.
 */
export function failedRunOutcome(err: unknown, queuedMs: number, ctx: FailureContext): RunOutcome {
  const ran = ctx.startedAt > 0 ? ctx.now - ctx.startedAt : 0;
  if (ctx.timedOut) {
    return failureOf(
      'TIMEOUT',
      `the run exceeded its time limit of ${ctx.timeoutMs} ms and was stopped`,
      ran,
      queuedMs,
    );
  }
  const e = err as { code?: string; message?: string; stack?: string } | undefined;
  if (e?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    const message = `the run exceeded its memory cap of ${ctx.heapMb} MB (its worker's heap) and was stopped`;
    return { ...failureOf('BUDGET_EXCEEDED', message, ran, queuedMs), reason: 'memory' };
  }
  return failureOf('INTERNAL_ERROR', 'internal error', ran, queuedMs, undefined, e?.stack ?? String(err));
}
