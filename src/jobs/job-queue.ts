import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Job, type JobsOptions, Queue } from 'bullmq';
import type { Cluster, Redis } from 'ioredis';
import { withTrace } from '../telemetry/spans.js';
import type { JobAnswer, JobData, JobState, JobView, WebhookAttempt } from './job-types.js';

export const JOBS_QUEUE = 'jobs';
export const WEBHOOKS_QUEUE = 'webhooks';
const CANCEL_LUA = readFileSync(new URL('./cancel.lua', import.meta.url), 'utf8');

/** A job id: 144 random bits (it cannot be guessed; it is no secret either: every read checks the owner). */
export function newJobId(): string {
  return `job_${randomBytes(18).toString('base64url')}`;
}

/** The webhook delivery of a job: one per job, so that a job run twice delivers once. */
export function webhookJobId(jobId: string): string {
  return `wh_${jobId}`;
}

export interface JobQueueOptions {
  connection: Redis | Cluster;
  prefix: string;
  /** How long finished jobs are kept (JOBS_RESULT_TTL_SEC). */
  ttlSec: number;
  /** The secrets an owner's webhooks are signed with now ([]: none; a callbackUrl is refused). */
  secretsFor: (owner: string) => string[];
}

export type CancelOutcome = 'cancelled' | 'finished' | 'unknown';

/**
 * The jobs of every door (docs/api.md, "Jobs"), kept by BullMQ in the hub's Redis: this
 * class submits them and reads them back as the owner sees them; src/jobs/job-worker.ts
 * runs them. A job another caller submitted reads as no job at all.
 */
export class JobQueue {
  readonly queue: Queue<JobData, JobAnswer>;
  readonly webhooks: Queue;
  private readonly redis: Redis | Cluster;
  readonly secretsFor: (owner: string) => string[];

  constructor(private readonly opts: JobQueueOptions) {
    this.redis = opts.connection;
    this.secretsFor = opts.secretsFor;
    this.queue = new Queue(JOBS_QUEUE, { connection: opts.connection, prefix: opts.prefix });
    this.webhooks = new Queue(WEBHOOKS_QUEUE, { connection: opts.connection, prefix: opts.prefix });
    this.queue.on('error', () => {});
    this.webhooks.on('error', () => {});
  }

  /** Queues a job; it is kept JOBS_RESULT_TTL_SEC after it finishes. */
  async submit(data: JobData, id = newJobId()): Promise<string> {
    const keep = { age: this.opts.ttlSec };
    const options: JobsOptions = { jobId: id, removeOnComplete: keep, removeOnFail: keep, attempts: 1 };
    // The submitting request's trace travels with the job (docs/operations.md, "Traces").
    await this.queue.add(data.call.kind, withTrace(data), options);
    const now = Date.now();
    const index = this.ownerKey(data.owner);
    await this.redis
      .multi()
      .zadd(index, now, id)
      // Jobs queued longer than the TTL ago and finished are gone; a waiting one is found by id.
      .zremrangebyscore(index, 0, now - 7 * this.opts.ttlSec * 1000)
      .pexpire(index, 7 * this.opts.ttlSec * 1000)
      .exec();
    return id;
  }

  /** The job as its owner sees it; null when it does not exist, has expired or is another caller's. */
  async view(id: string, owner: string, withAnswer = true): Promise<JobView | null> {
    const job = await this.owned(id, owner);
    if (!job) return null;
    return this.describe(job, withAnswer);
  }

  /** The owner's jobs, newest first: `limit` of them from `offset`, and the offset of the next page. */
  async list(
    owner: string,
    offset: number,
    limit: number,
    withAnswers = false,
  ): Promise<{ jobs: JobView[]; next: number | null }> {
    const index = this.ownerKey(owner);
    const jobs: JobView[] = [];
    let at = offset;
    // Ids whose jobs expired are skipped (and dropped from the index) until the page is full.
    while (jobs.length < limit) {
      const ids = await this.redis.zrevrange(index, at, at + limit - 1);
      if (ids.length === 0) return { jobs, next: null };
      for (const id of ids) {
        at += 1;
        const view = await this.view(id, owner, withAnswers);
        if (view) jobs.push(view);
        else await this.redis.zrem(index, id);
        if (jobs.length === limit) break;
      }
    }
    const more = (await this.redis.zcard(index)) > at;
    return { jobs, next: more ? at : null };
  }

  /**
   * Cancels a queued or running job: atomic with its finishing (src/jobs/cancel.lua). A
   * queued job is then skipped; a running one's result is dropped (its run ends in its
   * worker); neither delivers a webhook.
   */
  async cancel(id: string, owner: string): Promise<CancelOutcome> {
    const job = await this.owned(id, owner);
    if (!job) return 'unknown';
    const done = (await this.redis.eval(CANCEL_LUA, 1, this.queue.toKey(id), Date.now())) as number;
    if (done === -1) return 'unknown';
    if (done === 0) return 'finished';
    // A job waiting out its limits is taken up now, so that it ends as cancelled at once.
    if ((await job.getState()) === 'delayed') await job.promote().catch(() => {});
    return 'cancelled';
  }

  /** Whether the job was cancelled (the worker asks before and after a run). */
  async isCancelled(id: string): Promise<boolean> {
    return (await this.redis.hexists(this.queue.toKey(id), 'hubCancelledAt')) === 1;
  }

  /** Jobs waiting to run, and the age of the oldest of them (the metrics, src/jobs/job-metrics.ts). */
  async backlog(): Promise<{ queued: number; running: number; delayed: number; oldestAgeSec: number }> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed');
    const [oldest] = await this.queue.getJobs(['waiting'], 0, 0, true); // ascending: the first is the oldest
    const oldestAgeSec = oldest ? Math.max(0, (Date.now() - oldest.timestamp) / 1000) : 0;
    return {
      queued: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      running: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      oldestAgeSec,
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.queue.close(), this.webhooks.close()]);
  }

  private ownerKey(owner: string): string {
    return `${this.opts.prefix}:owner:${owner}`;
  }

  private async owned(id: string, owner: string): Promise<Job<JobData, JobAnswer> | null> {
    if (!/^job_[A-Za-z0-9_-]{24}$/.test(id)) return null;
    const job = await this.queue.getJob(id);
    return job && job.data.owner === owner ? job : null;
  }

  private async describe(job: Job<JobData, JobAnswer>, withAnswer: boolean): Promise<JobView> {
    const id = job.id as string;
    // One snapshot decides: the job's hash as read above. A state read after it could be
    // newer than the answer it holds (a job that finished in between would read as
    // finished without its answer), so the state comes from the snapshot where it can.
    const cancelled = await this.isCancelled(id);
    const state: JobState = cancelled
      ? 'cancelled'
      : job.finishedOn
        ? finishedState(job)
        : await unfinishedState(job);
    const call = job.data.call;
    const view: JobView = {
      id,
      state,
      kind: call.kind === 'runs' ? 'batch' : 'run',
      ...(call.kind === 'mcp' ? { task: true as const } : {}),
      ...(call.kind === 'runs' ? { runs: call.runs.length } : { toolId: call.toolId }),
      createdAt: new Date(job.timestamp).toISOString(),
      attempts: job.attemptsStarted,
    };
    if (job.processedOn) view.startedAt = new Date(job.processedOn).toISOString();
    if (job.finishedOn) {
      view.finishedAt = new Date(job.finishedOn).toISOString();
      view.expiresAt = new Date(job.finishedOn + this.opts.ttlSec * 1000).toISOString();
    }
    const answer = answerOf(state, job);
    if (withAnswer && answer) view.answer = { status: answer.status, body: JSON.parse(answer.body) };
    if (job.data.callbackUrl) view.webhook = await this.webhookOf(id, job.data.callbackUrl);
    return view;
  }

  private async webhookOf(id: string, url: string): Promise<NonNullable<JobView['webhook']>> {
    const whId = webhookJobId(id);
    const [delivery, logs] = await Promise.all([
      this.webhooks.getJob(whId),
      this.webhooks.getJobLogs(whId, 0, 99),
    ]);
    const attempts = logs.logs.map((line) => JSON.parse(line) as WebhookAttempt);
    const at = delivery ? await delivery.getState() : 'unknown';
    const state = at === 'completed' ? 'delivered' : at === 'failed' ? 'failed' : 'pending';
    return { url, state, attempts };
  }
}

/** A finished job's state, from its snapshot: its own answer says, or BullMQ failed it. */
function finishedState(job: Job<JobData, JobAnswer>): JobState {
  return !job.failedReason && job.returnvalue?.ok ? 'succeeded' : 'failed';
}

/**
 * An unfinished snapshot's state: BullMQ's, read now; a job that waits out its limits
 * (delayed) is still queued, and one that finished since the snapshot is still running in it.
 */
async function unfinishedState(job: Job<JobData, JobAnswer>): Promise<JobState> {
  const now = await job.getState();
  return now === 'active' || now === 'completed' || now === 'failed' ? 'running' : 'queued';
}

/** The answer of a finished job: its own, or for a job BullMQ failed (it crashed its process too often), a 500. */
export function answerOf(state: JobState, job: Job<JobData, JobAnswer>): JobAnswer | null {
  if (state === 'succeeded' || (state === 'failed' && !job.failedReason && job.returnvalue?.body))
    return job.returnvalue;
  if (state !== 'failed') return null;
  const body = JSON.stringify({
    ok: false,
    error: 'the job could not be run: its process stopped while running it, more than once',
    errorCode: 'INTERNAL_ERROR',
  });
  return { ok: false, status: 500, body };
}
