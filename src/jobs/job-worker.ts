import { DelayedError, type Job, Worker } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { errorJson, HubError } from '../errors.js';
import type { RunFacade } from '../run/facade.js';
import type { RunLog } from '../run/run-types.js';
import { contextFrom, inSpan, SpanKind, withTrace } from '../telemetry/spans.js';
import { JOBS_QUEUE, type JobQueue, webhookJobId } from './job-queue.js';
import type { JobAnswer, JobData } from './job-types.js';
import { type JobCaller, type JobRunContext, runJob } from './run-job.js';
import type { DeliveryData } from './webhooks/webhook-worker.js';

export interface JobWorkerOptions {
  connection: Redis | Cluster;
  prefix: string;
  queue: JobQueue;
  facade: RunFacade;
  /** The owner's identity and tier now; null when its key was revoked (the job fails, 401). */
  callerOf: (owner: string) => JobCaller | null;
  concurrency: number;
  lockMs: number;
  /** How long a job may wait for its limits (JOBS_LIMIT_WAIT_SEC), in ms. */
  limitWaitMs: number;
  resultMaxBytes: number;
  ttlSec: number;
  webhookAttempts: number;
  log: RunLog;
  /** An MCP task's answer body (src/jobs/run-job.ts). */
  callResult: JobRunContext['callResult'];
  /** A job ended: its outcome (the metrics). */
  onFinished: (outcome: 'succeeded' | 'failed' | 'cancelled') => void;
}

/** The answer a cancelled job keeps: none (its view shows no answer). */
const CANCELLED: JobAnswer = { ok: false, status: 0, body: '' };

/**
 * Runs jobs from the shared queue (docs/api.md, "Jobs"), JOBS_CONCURRENCY at a time, each
 * through the run facade under its owner's limits. BullMQ holds each running job with a
 * lock its process renews; when the process dies, the lock lapses after JOBS_LOCK_MS and
 * the job goes back to the queue for any instance (a job that stalls three times fails).
 */
export function jobWorker(opts: JobWorkerOptions): Worker<JobData, JobAnswer> {
  const worker = new Worker<JobData, JobAnswer>(JOBS_QUEUE, (job, token) => runQueued(opts, job, token), {
    connection: opts.connection,
    prefix: opts.prefix,
    concurrency: Math.max(1, opts.concurrency),
    autorun: opts.concurrency > 0,
    lockDuration: opts.lockMs,
    stalledInterval: opts.lockMs,
    maxStalledCount: 2,
  });
  worker.on('error', () => {});
  // A job BullMQ failed (its processor threw: a Redis error, a lost lock, a stall past the
  // bound): the client sees INTERNAL_ERROR without detail; the log has it.
  worker.on('failed', (job, err) => {
    opts.log.error({ err, jobId: job?.id }, 'job failed in the queue');
  });
  return worker;
}

/** A job's run, traced while tracing is on: a span that continues the submitting request's trace. */
function runQueued(opts: JobWorkerOptions, job: Job<JobData, JobAnswer>, token?: string): Promise<JobAnswer> {
  const attributes = { 'toolhub.job.kind': job.data.call.kind, 'toolhub.job.attempt': job.attemptsStarted };
  return inSpan('toolhub.job', attributes, () => runQueuedNow(opts, job, token), {
    parent: contextFrom(job.data.trace),
    kind: SpanKind.CONSUMER,
  });
}

async function runQueuedNow(
  opts: JobWorkerOptions,
  job: Job<JobData, JobAnswer>,
  token?: string,
): Promise<JobAnswer> {
  const id = job.id as string;
  if (await opts.queue.isCancelled(id)) return finish(opts, 'cancelled', CANCELLED);
  const caller = opts.callerOf(job.data.owner);
  if (!caller) {
    const err = new HubError('INVALID_INPUT', 'the API key that submitted this job was revoked', {
      status: 401,
    });
    return settle(opts, job, { ok: false, status: 401, body: errorJson(err) });
  }
  let cancelled = false;
  // A batch job looks for a cancel between its runs: one Redis read a second, not one per run.
  const watch = setInterval(() => {
    opts.queue.isCancelled(id).then(
      (c) => (cancelled ||= c),
      () => {},
    );
  }, 1000);
  try {
    const out = await runJob(job.data.call, {
      facade: opts.facade,
      caller,
      jobId: id,
      log: opts.log,
      waitUntil: job.timestamp + opts.limitWaitMs,
      batchParallel: 4,
      stopped: () => cancelled,
      callResult: opts.callResult,
    });
    if ('waitMs' in out) {
      // Refused for now by the owner's limits: back to the queue until the limit refills,
      // freeing this slot for other callers' jobs.
      await job.moveToDelayed(Date.now() + out.waitMs, token);
      throw new DelayedError();
    }
    return settle(opts, job, out);
  } finally {
    clearInterval(watch);
  }
}

async function settle(
  opts: JobWorkerOptions,
  job: Job<JobData, JobAnswer>,
  answer: JobAnswer,
): Promise<JobAnswer> {
  const id = job.id as string;
  let kept = answer;
  if (Buffer.byteLength(answer.body) > opts.resultMaxBytes) {
    const err = new HubError(
      'BUDGET_EXCEEDED',
      `the job's answer is larger than JOBS_RESULT_MAX_BYTES (${opts.resultMaxBytes} bytes); send fewer runs per job`,
      { reason: 'resultSize' },
    );
    kept = { ok: false, status: err.status, body: errorJson(err) };
  }
  if (job.data.callbackUrl) {
    // One delivery per job, named after it: a job run twice (its process died) queues it once.
    const keep = { age: opts.ttlSec };
    // The job's trace goes on to its delivery (docs/operations.md, "Traces").
    const delivery: DeliveryData = withTrace({ jobId: id, owner: job.data.owner });
    await opts.queue.webhooks.add('deliver', delivery, {
      jobId: webhookJobId(id),
      attempts: opts.webhookAttempts,
      backoff: { type: 'hub' },
      removeOnComplete: keep,
      removeOnFail: keep,
    });
  }
  return finish(opts, kept.ok ? 'succeeded' : 'failed', kept);
}

function finish(opts: JobWorkerOptions, outcome: 'succeeded' | 'failed' | 'cancelled', answer: JobAnswer) {
  opts.onFinished(outcome);
  return answer;
}
