import type { Worker } from 'bullmq';
import fp from 'fastify-plugin';
import type { Cluster, Redis } from 'ioredis';
import { jobsConnection, jobsPrefix } from '../jobs/connection.js';
import { jobMetrics } from '../jobs/job-metrics.js';
import { JobQueue } from '../jobs/job-queue.js';
import { jobWorker } from '../jobs/job-worker.js';
import type { JobCaller } from '../jobs/run-job.js';
import { webhookWorker } from '../jobs/webhooks/webhook-worker.js';
import { toCallResult } from '../mcp/call-result.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The jobs (docs/api.md, "Jobs"); null without a Redis (REDIS_URL and its kin). */
    jobs: JobQueue | null;
  }
}

/**
 * `app.jobs`: the job queue on the hub's Redis (BullMQ), this instance's job and webhook
 * workers, and their metrics. Without a Redis there are no jobs: the routes answer 503.
 */
export default fp(
  async (app) => {
    const { env, redis } = app.hubConfig;
    if (!redis) {
      app.decorate('jobs', null);
      return;
    }
    const connection: Redis | Cluster = jobsConnection(redis);
    const prefix = jobsPrefix(env.REDIS_PREFIX);
    const keys = app.apiKeys;
    const operatorSecrets = (env.WEBHOOK_SECRET ?? '').split(' ').filter(Boolean);
    const secretsFor = (owner: string) =>
      owner.startsWith('key:') && keys ? keys.webhookSecrets(owner.slice(4)) : operatorSecrets;
    const queue = new JobQueue({ connection, prefix, ttlSec: env.JOBS_RESULT_TTL_SEC, secretsFor });
    app.decorate('jobs', queue);
    const metrics = jobMetrics(app.metrics.registry, queue);
    const callerOf = (owner: string): JobCaller | null => {
      if (!owner.startsWith('key:') || !keys) return { client: owner };
      const found = keys.ownerById(owner.slice(4));
      return found ? { client: owner, ...(found.tier ? { tier: found.tier } : {}) } : null;
    };
    const workers: Worker[] = [
      jobWorker({
        connection,
        prefix,
        queue,
        facade: app.facade,
        callerOf,
        concurrency: env.JOBS_CONCURRENCY,
        lockMs: env.JOBS_LOCK_MS,
        limitWaitMs: env.JOBS_LIMIT_WAIT_SEC * 1000,
        resultMaxBytes: env.JOBS_RESULT_MAX_BYTES,
        ttlSec: env.JOBS_RESULT_TTL_SEC,
        webhookAttempts: env.WEBHOOK_MAX_ATTEMPTS,
        log: app.log,
        callResult: (result) => JSON.stringify(toCallResult(result)),
        onFinished: metrics.finished,
      }),
      webhookWorker({
        connection,
        prefix,
        queue,
        secretsFor,
        allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES,
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
        retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
        concurrency: env.JOBS_CONCURRENCY > 0 ? Math.max(4, env.JOBS_CONCURRENCY) : 0,
        onAttempt: (outcome, deliveredAfterSec) =>
          metrics.webhookAttempt(
            deliveredAfterSec !== undefined ? 'delivered' : (outcome.failure ?? 'failed'),
            deliveredAfterSec,
          ),
      }),
    ];
    app.addHook('onClose', async () => {
      // Running jobs finish within half the shutdown window; past it they are left to their
      // locks, and another instance takes them up (docs/api.md, "Jobs"). With Redis away
      // BullMQ's own close waits for it: the connection is cut at the bound all the same.
      // A queue whose Redis is away has nothing to finish: it is cut at once.
      const half = connection.status === 'ready' ? env.SHUTDOWN_TIMEOUT_MS / 2 : 0;
      const bound = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
      const closing = (async () => {
        await Promise.race([Promise.allSettled(workers.map((w) => w.close())), bound(half)]);
        await Promise.allSettled([...workers.map((w) => w.close(true)), queue.close()]);
      })();
      await Promise.race([closing, bound(half + 1000)]);
      connection.disconnect();
      for (const w of workers) w.disconnect().catch(() => {});
    });
  },
  {
    name: 'toolhub-jobs',
    dependencies: ['toolhub-facade', 'toolhub-metrics', 'toolhub-api-keys'],
  },
);
