import type { ErrorCode } from '../errors.js';
import type { RunEnvelope } from '../shared/envelope.js';
import type { AbortReason } from './deadlines.js';

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
      /** Log-only detail. */
      detail?: string;
    };

export interface FailureContext {
  reason: AbortReason | null;
  timeoutMs: number;
  queueWaitMs: number;
  heapMb: number;
  startedAt: number;
}

export function failureOf(
  code: ErrorCode,
  message: string,
  durationMs: number,
  queuedMs: number,
  status?: number,
  detail?: string,
): RunOutcome {
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

/** Maps a worker's envelope, or a pool rejection (abort, queue full, worker death), to an outcome. */
export function outcomeOf(value: RunEnvelope | unknown, queuedMs: number, ctx?: FailureContext): RunOutcome {
  if (!ctx) {
    const env = value as RunEnvelope;
    if (env.ok) return { ok: true, json: env.json, durationMs: env.durationMs, queuedMs };
    return failureOf(env.code, env.message, env.durationMs, queuedMs, undefined, env.detail);
  }
  const ran = ctx.startedAt > 0 ? Date.now() - ctx.startedAt : 0;
  if (ctx.reason === 'timeout') {
    return failureOf(
      'TIMEOUT',
      `the run exceeded its time limit of ${ctx.timeoutMs} ms and was stopped`,
      ran,
      queuedMs,
    );
  }
  if (ctx.reason === 'queue-wait') {
    return failureOf(
      'CONCURRENCY_LIMIT',
      `no worker was free within ${ctx.queueWaitMs} ms; the instance is busy`,
      0,
      queuedMs,
      503,
    );
  }
  const err = value as { code?: string; message?: string; stack?: string };
  if (err?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return failureOf(
      'BUDGET_EXCEEDED',
      `the run exceeded the worker heap limit of ${ctx.heapMb} MB`,
      ran,
      queuedMs,
    );
  }
  if (err?.message === 'Task queue is at limit') {
    return failureOf(
      'CONCURRENCY_LIMIT',
      'the instance is at capacity: the run queue is full',
      0,
      queuedMs,
      503,
    );
  }
  return failureOf('INTERNAL_ERROR', 'internal error', ran, queuedMs, undefined, err?.stack ?? String(value));
}
