import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { contextFrom, currentTraceHeaders, failSpan, inSpan, SpanKind } from '../../telemetry/spans.js';
import { type JobQueue, WEBHOOKS_QUEUE } from '../job-queue.js';
import { webhookBackoff } from './backoff.js';
import { type AttemptOutcome, postWebhook } from './post.js';
import { webhookHeaders } from './sign.js';

/** What a delivery carries in its queue: the job it reports. */
export interface DeliveryData {
  jobId: string;
  owner: string;
  /** The job's trace while tracing is on: each attempt is a span of it, and sends its `traceparent`. */
  trace?: Record<string, string>;
}

export interface WebhookWorkerOptions {
  connection: Redis | Cluster;
  prefix: string;
  queue: JobQueue;
  /** The secrets a delivery for this owner is signed with now ([]: none, the delivery fails). */
  secretsFor: (owner: string) => string[];
  allowPrivate: boolean;
  timeoutMs: number;
  retryBaseMs: number;
  concurrency: number;
  /** Each attempt's outcome, and for a delivery the seconds since the job ended (the metrics). */
  onAttempt: (outcome: AttemptOutcome, deliveredAfterSec: number | undefined) => void;
}

class AttemptFailed extends Error {
  override name = 'AttemptFailed';
  constructor(
    message: string,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

/**
 * Delivers one signed webhook per finished job (docs/api.md, "Webhooks"): the job's view as
 * `data`, retried by BullMQ on a timeout or a non-2xx with backoff and jitter (or the
 * receiver's Retry-After), stopped by 410 Gone; every attempt is logged on the delivery and
 * shown on the job. The same `webhook-id` on every attempt, so a receiver can drop repeats.
 */
export function webhookWorker(opts: WebhookWorkerOptions): Worker<DeliveryData> {
  const worker = new Worker<DeliveryData>(WEBHOOKS_QUEUE, (job, token) => deliver(opts, job, token), {
    connection: opts.connection,
    prefix: opts.prefix,
    concurrency: Math.max(1, opts.concurrency),
    autorun: opts.concurrency > 0,
    settings: {
      backoffStrategy: (attemptsMade: number, _type?: string, err?: Error) =>
        webhookBackoff(attemptsMade, opts.retryBaseMs, (err as AttemptFailed | undefined)?.retryAfterMs),
    },
  });
  worker.on('error', () => {});
  return worker;
}

async function deliver(opts: WebhookWorkerOptions, delivery: Job<DeliveryData>, token?: string) {
  const { jobId, owner } = delivery.data;
  const job = await opts.queue.queue.getJob(jobId);
  // Expired, or cancelled before it finished: nothing to tell.
  if (!job || (await opts.queue.isCancelled(jobId))) return 'dropped';
  if (!job.finishedOn) {
    // Queued as the job's run ended, a moment before BullMQ marks it finished (or the run
    // restarts after a crash): wait for the answer it will report.
    await delivery.moveToDelayed(Date.now() + 200, token);
    throw new DelayedError();
  }
  const view = await opts.queue.view(jobId, owner);
  if (!view?.webhook) return 'dropped';
  const { webhook, ...data } = view;
  const body = JSON.stringify({ type: `job.${view.state}`, timestamp: view.finishedAt, data });
  const secrets = opts.secretsFor(owner);
  if (secrets.length === 0) throw new UnrecoverableError('no webhook secret for this caller');
  const post = () => {
    // Signed headers, and the attempt's own span as the receiver's parent while tracing is on.
    const headers = { ...webhookHeaders(secrets, `msg_${jobId}`, body), ...currentTraceHeaders() };
    return postWebhook(webhook.url, headers, body, {
      allowPrivate: opts.allowPrivate,
      timeoutMs: opts.timeoutMs,
    });
  };
  const attributes = { 'toolhub.webhook.attempt': delivery.attemptsMade + 1 };
  const outcome = await inSpan(
    'toolhub.webhook.delivery',
    attributes,
    async (span) => {
      const o = await post();
      if (o.status !== undefined) span?.setAttribute('http.response.status_code', o.status);
      if (o.status === undefined || o.status >= 300)
        failSpan(span, o.error ?? `the receiver answered ${o.status}`);
      return o;
    },
    { parent: contextFrom(delivery.data.trace), kind: SpanKind.CLIENT },
  );
  const delivered = outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
  await delivery.log(JSON.stringify({ at: new Date().toISOString(), ...outcome }));
  opts.onAttempt(outcome, delivered ? (Date.now() - (job.finishedOn ?? Date.now())) / 1000 : undefined);
  if (delivered) return 'delivered';
  if (outcome.status === 410) throw new UnrecoverableError('the receiver answered 410 Gone');
  throw new AttemptFailed(outcome.error ?? `the receiver answered ${outcome.status}`, outcome.retryAfterMs);
}
