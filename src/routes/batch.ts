import type { FastifyInstance } from 'fastify';
import { type CacheOutcome, cacheStatusHeader } from '../cache/cache-status.js';
import { batchRequestEtagOf, matchesEtag } from '../cache/content-key.js';
import { routeSchema } from '../catalogue/route-doc.js';
import { batchRequestRouteDoc } from '../catalogue/tool-route-docs.js';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { JUNK_ERROR_CODES } from '../http/junk.js';
import { sendError } from '../http/send-error.js';
import { mergedFields } from '../limits/ratelimit-fields.js';
import { itemJson } from '../run/answer-json.js';
import { readBatchRequest, withSource } from '../run/batch-input.js';
import { fromGeneric } from '../run/input.js';
import type { RunResult } from '../run/run-types.js';
import { readRuntimeCall } from '../run/runtime-input.js';
import { preferredAsync } from './jobs.js';
import { cacheDirectivesOf } from './send-run.js';

/**
 * `POST /api/tools/batch/` (docs/api.md, "Batch runs"): `{runs: [generic runtime bodies],
 * source?}`. Each run is checked and charged under its own tool's policy and goes to the
 * pool like a run sent alone; the runs of a batch request run at once, within the caller's
 * caps (a batch request never gets more parallelism than the client sending them itself). The answer
 * is 200 with every run's answer in request order, each exactly as that run alone would
 * have answered, with its own `runtime` and `rateLimit`.
 */
export default async function batchRequestRoutes(app: FastifyInstance): Promise<void> {
  const opts = { maxRuns: app.hubConfig.env.BATCH_MAX_RUNS };
  const doc = batchRequestRouteDoc(opts.maxRuns);
  app.post(doc.url, { config: { toolSurface: true }, schema: routeSchema(doc) }, async (request, reply) => {
    // Prefer: respond-async: a batch job, up to JOBS_BATCH_MAX_RUNS runs (docs/api.md, "Jobs").
    const queued = await preferredAsync(app, request, reply);
    if (queued) return queued;
    const { runs, source } = readBatchRequest(request.body, opts.maxRuns);
    const caller = callerOf(request);
    // The batch request's Cache-Control applies to each of its runs.
    const cacheControl = cacheDirectivesOf(request);
    // Junk inside a 200 costs its sender as a 400 would: one junk count per refused item.
    const junk = (code: string) => {
      if (JUNK_ERROR_CODES.has(code)) app.junk.count(request.ip);
    };
    const prepared = runs.map((item, i) => {
      try {
        const call = readRuntimeCall(withSource(item, source), 'body');
        return app.facade.prepare({
          toolId: call.toolId,
          surface: 'batch',
          source: call.source,
          resolve: (def) => fromGeneric(def, call.generic),
          ...caller,
          requestId: `${request.id}:${i}`,
          log: request.log,
          cacheControl,
        });
      } catch (err) {
        if (!(err instanceof HubError)) throw err;
        return { ok: false as const, error: err };
      }
    });
    // The batch request's ETag when every run has one: If-None-Match naming it answers 304, nothing runs.
    const etags = prepared.map((p) => (p.ok ? p.run.address?.etag : undefined));
    const etag = etags.every((e) => e !== undefined) ? batchRequestEtagOf(etags as string[]) : undefined;
    const validated = etag !== undefined && matchesEtag(request.headers['if-none-match'], etag);
    const answers = await Promise.all(
      prepared.map(async (p) => {
        const result = p.ok ? await app.facade.execute(p.run, validated) : p;
        if (!result.ok) junk(result.error.code);
        return result;
      }),
    );
    if (validated) {
      // A conditional batch request is one answer: 304 when every run was admitted, else the first error.
      const refused = answers.find((a) => !a.ok);
      if (refused && !refused.ok) return sendError(reply, refused.error);
      return reply
        .code(304)
        .headers(batchRequestFields(answers))
        .header('ETag', etag)
        .header('Cache-Status', cacheStatusHeader(VALIDATED))
        .send();
    }
    const results = answers.map((result) => {
      const json = itemJson(result);
      // Held until the last run ends: charged to the request's memory reservation.
      request.memory?.hold(json.length);
      return json;
    });
    reply.headers(batchRequestFields(answers));
    if (etag !== undefined && answers.every((a) => a.ok)) reply.header('ETag', etag);
    return reply.type('application/json; charset=utf-8').send(`{"ok":true,"results":[${results.join(',')}]}`);
  });
}

const VALIDATED: CacheOutcome = { status: 'hit', layer: 'etag' };

/**
 * The IETF RateLimit fields of the whole answer (docs/api.md, "Batch runs"): every limit that
 * applies to one of its runs, and the fewest units left of each limit its runs reported.
 */
function batchRequestFields(answers: readonly RunResult[]): Record<string, string> {
  return mergedFields(answers.flatMap((a) => (a.rate ? [a.rate] : [])));
}
