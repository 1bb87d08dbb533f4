import type { FastifyReply } from 'fastify';
import { errorJson, type HubError } from '../errors.js';

/**
 * Answers a HubError as its ToolRunError, with the status and headers it carries, and notes
 * its code (and tool) on the request for the access log. The one error handler
 * (src/plugins/errors.ts) and the routes answer errors through it.
 */
export function sendError(reply: FastifyReply, err: HubError): FastifyReply {
  reply.request.errorCode = err.code;
  if (typeof err.runtime?.toolId === 'string') reply.request.toolId = err.runtime.toolId;
  return reply
    .code(err.status)
    .headers(err.headers)
    .type('application/json; charset=utf-8')
    .send(errorJson(err));
}
