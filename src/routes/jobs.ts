import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JOB_PATH, jobRouteDocs } from '../catalogue/job-route-docs.js';
import { routePath, routeSchema } from '../catalogue/route-doc.js';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { JobCall, JobData } from '../jobs/job-types.js';
import { AddressRefused, checkWebhookUrl, resolveAllowed } from '../jobs/webhooks/address-guard.js';
import { requestLimit } from '../limits/store.js';
import { readBatchRequest } from '../run/batch-input.js';
import { fromGeneric } from '../run/input.js';
import { readRuntimeCall } from '../run/runtime-input.js';

/**
 * The jobs' door (docs/api.md, "Jobs"): `POST /api/jobs/` queues a run or a batch of runs
 * and answers 202; `GET` reads a job (or the caller's list), `DELETE` cancels one. A job is
 * its submitter's alone: another caller reads it as 404.
 */
export default async function jobRoutes(app: FastifyInstance): Promise<void> {
  const { env } = app.hubConfig;
  const docs = jobRouteDocs(env.JOBS_BATCH_MAX_RUNS);
  // Every request to the jobs' door counts here, per caller (docs/api.md, "Jobs").
  const requests = requestLimit(env.JOBS_REQUEST_LIMIT);
  const config = { toolSurface: true };

  /** The queue, once the caller's request is counted; 503 without a Redis. */
  const jobsFor = async (request: FastifyRequest): Promise<{ jobs: JobQueue; owner: string }> => {
    const jobs = app.jobs;
    if (!jobs) {
      throw new HubError(
        'RUNTIME_DISABLED',
        "jobs need the hub's Redis (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS); this hub has none",
      );
    }
    const { client } = callerOf(request);
    const counted = await app.limits.countUsageRead(client, requests, '@jobs');
    if (!counted.allowed) {
      throw new HubError(
        'RATE_LIMITED',
        `at most ${requests.limit} requests a minute to /api/jobs/; retry later`,
        {
          headers: { 'Retry-After': counted.retryAfterSec },
        },
      );
    }
    return { jobs, owner: client };
  };

  app.post(docs.submit.url, { config, schema: routeSchema(docs.submit) }, async (request, reply) => {
    const { jobs, owner } = await jobsFor(request);
    return acceptJob(app, request, reply, jobs, owner, request.body);
  });

  app.get(docs.list.url, { config, schema: routeSchema(docs.list) }, async (request, reply) => {
    const { jobs, owner } = await jobsFor(request);
    const query = request.query as Record<string, unknown>;
    const limit = intOf(query.limit, 'limit', 1, 100) ?? 20;
    const offset = intOf(query.offset, 'offset', 0, 1_000_000) ?? 0;
    return sendJob(reply, 200, await jobs.list(owner, offset, limit));
  });

  app.get(routePath(JOB_PATH), { config, schema: routeSchema(docs.get) }, async (request, reply) => {
    const { jobs, owner } = await jobsFor(request);
    const { jobId } = request.params as { jobId: string };
    const view = await jobs.view(jobId, owner);
    if (!view) throw noSuchJob();
    return sendJob(reply, 200, view);
  });

  app.delete(routePath(JOB_PATH), { config, schema: routeSchema(docs.cancel) }, async (request, reply) => {
    const { jobs, owner } = await jobsFor(request);
    const { jobId } = request.params as { jobId: string };
    const outcome = await jobs.cancel(jobId, owner);
    if (outcome === 'unknown') throw noSuchJob();
    const view = await jobs.view(jobId, owner);
    if (!view) throw noSuchJob();
    if (outcome === 'finished')
      throw new HubError(
        'INVALID_INPUT',
        `the job has finished (${view.state}); there is nothing to cancel`,
        { status: 409 },
      );
    return sendJob(reply, 200, view);
  });
}

const sendJob = (reply: FastifyReply, status: number, view: unknown) =>
  reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(view));

/** Queues a job request's body and answers 202 with the job and its Location. */
export async function acceptJob(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  jobs: JobQueue,
  owner: string,
  body: unknown,
): Promise<FastifyReply> {
  const { call, callbackUrl } = await readJobRequest(app, request, jobs, owner, body);
  const data: JobData = { owner, call, requestId: request.id, ...(callbackUrl ? { callbackUrl } : {}) };
  const id = await jobs.submit(data);
  const view = await jobs.view(id, owner);
  return sendJob(reply.header('Location', `/api/jobs/${id}`), 202, view);
}

/**
 * `Prefer: respond-async` (RFC 7240) on the generic runtime's and the batch's POST: the same
 * job POST /api/jobs/ would make, with `Preference-Applied`. Without the hub's Redis the
 * preference is not honoured and the call answers in place, as RFC 7240 allows.
 */
export async function preferredAsync(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply | null> {
  const prefer = request.headers.prefer;
  if (!app.jobs || typeof prefer !== 'string' || !/(^|[,;\s])respond-async($|[,;\s])/i.test(prefer))
    return null;
  const owner = callerOf(request).client;
  reply.header('Preference-Applied', 'respond-async');
  return acceptJob(app, request, reply, app.jobs, owner, request.body);
}

function noSuchJob(): HubError {
  return new HubError('INVALID_INPUT', 'no such job for this caller (it may have expired)', { status: 404 });
}

function intOf(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d{1,7}$/.test(value) || n < min || n > max)
    throw new HubError('INVALID_INPUT', `${name} must be an integer from ${min} to ${max}`);
  return n;
}

/**
 * A job request, checked as the synchronous call checks it, so that a bad one is refused
 * now, not in the job: a single run's tool, switches, size and input schema (the facade's
 * prepare, which charges nothing); a batch's shape and size (its runs are checked as they
 * run, each answered in its place, as a batch request answers them); the callbackUrl's
 * address and a secret to sign with.
 */
async function readJobRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  jobs: JobQueue,
  owner: string,
  body: unknown,
): Promise<{ call: JobCall; callbackUrl?: string }> {
  const shape =
    'the body must be a JSON object: a generic runtime body {"toolId", "input"} or a batch body {"runs": [ … ]}, and an optional "callbackUrl"';
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HubError('INVALID_INPUT', shape);
  const { callbackUrl, ...rest } = body as Record<string, unknown>;
  let call: JobCall;
  if ('runs' in rest) {
    const { runs, source } = readBatchRequest(rest, app.hubConfig.env.JOBS_BATCH_MAX_RUNS);
    call = { kind: 'runs', runs, ...(source ? { source } : {}) };
  } else {
    const generic = readRuntimeCall(rest, 'body');
    const prepared = app.facade.prepare({
      toolId: generic.toolId,
      surface: 'job',
      source: generic.source,
      resolve: (def) => fromGeneric(def, generic.generic),
      ...callerOf(request),
      requestId: request.id,
      log: request.log,
    });
    if (!prepared.ok) throw prepared.error;
    call = { kind: 'run', toolId: generic.toolId, body: rest };
  }
  if (callbackUrl === undefined) return { call };
  if (typeof callbackUrl !== 'string')
    throw new HubError('INVALID_INPUT', 'callbackUrl must be a string (an http or https URL)');
  try {
    const url = checkWebhookUrl(callbackUrl);
    await resolveAllowed(url.hostname, app.hubConfig.env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES);
  } catch (err) {
    if (err instanceof AddressRefused) throw new HubError('INVALID_INPUT', err.message);
    throw err;
  }
  if (jobs.secretsFor(owner).length === 0) {
    throw new HubError(
      'INVALID_INPUT',
      app.apiKeys
        ? 'this API key has no webhook secret to sign with; make one: npm run keys -- webhook-secret rotate <id>'
        : 'webhooks need WEBHOOK_SECRET (a whsec_ secret) on this hub',
    );
  }
  return { call, callbackUrl };
}
