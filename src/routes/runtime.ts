import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeSchema } from '../catalogue/route-doc.js';
import { runtimeRouteDocs } from '../catalogue/tool-route-docs.js';
import { callerOf } from '../http/caller.js';
import { fromGeneric } from '../run/input.js';
import { readRuntimeCall } from '../run/runtime-input.js';
import { preferredAsync } from './jobs.js';
import { cacheDirectivesOf, sendRun } from './send-run.js';

/** The generic runtime endpoint, `/api/tools/run/` (docs/api.md): GET query or POST body. */
export default async function runtimeRoutes(app: FastifyInstance): Promise<void> {
  const handler = (from: 'query' | 'body') => async (request: FastifyRequest, reply: FastifyReply) => {
    if (from === 'body') {
      const queued = await preferredAsync(app, request, reply);
      if (queued) return queued;
    }
    const call = readRuntimeCall(from === 'query' ? request.query : request.body, from);
    const result = await app.facade.run({
      toolId: call.toolId,
      surface: 'runtime',
      source: call.source,
      resolve: (def) => fromGeneric(def, call.generic),
      ...callerOf(request),
      requestId: request.id,
      log: request.log,
      ifNoneMatch: request.headers['if-none-match'],
      cacheControl: cacheDirectivesOf(request),
    });
    return sendRun(reply, result);
  };
  const config = { toolSurface: true };
  const docs = runtimeRouteDocs([...app.tools.keys()]);
  app.get(docs.get.url, { config, schema: routeSchema(docs.get) }, handler('query'));
  app.post(docs.post.url, { config, schema: routeSchema(docs.post) }, handler('body'));
}
