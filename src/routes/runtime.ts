import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromGeneric } from '../run/input.js';
import type { RunAnswer } from '../run/run-tool.js';
import { readRuntimeCall } from '../run/runtime-input.js';

/** The generic runtime, `/api/tools/run/` (spec 4.3, 4.4): GET query or POST body. */
export default async function runtimeRoutes(app: FastifyInstance): Promise<void> {
  const handler = (from: 'query' | 'body') => async (request: FastifyRequest, reply: FastifyReply) => {
    const call = readRuntimeCall(from === 'query' ? request.query : request.body, from);
    const answer = await app.runTool({
      toolId: call.toolId,
      surface: 'runtime',
      source: call.source,
      resolve: (def) => fromGeneric(def, call.generic),
      client: request.ip,
      requestId: request.id,
      log: request.log,
    });
    return sendAnswer(reply, answer);
  };
  app.get('/api/tools/run/', handler('query'));
  app.post('/api/tools/run/', handler('body'));
}

export function sendAnswer(reply: FastifyReply, answer: RunAnswer): FastifyReply {
  reply.request.toolId = answer.toolId;
  return reply.headers(answer.headers).type('application/json; charset=utf-8').send(answer.body);
}
