import type { FastifyReply } from 'fastify';
import { sendError } from '../http/send-error.js';
import type { RunResult } from '../run/run-types.js';

/** A run's result as an HTTP answer: the ToolRunSuccess body and rate headers, or the ToolRunError. */
export function sendRun(reply: FastifyReply, result: RunResult): FastifyReply {
  if (!result.ok) return sendError(reply, result.error);
  reply.request.toolId = result.toolId;
  return reply.headers(result.rate.headers).type('application/json; charset=utf-8').send(successJson(result));
}

/** `{"ok":true,"result":…,"runtime":…}` with the result as the worker serialised it. */
export function successJson(result: Extract<RunResult, { ok: true }>): string {
  return `{"ok":true,"result":${result.resultJson},"runtime":${JSON.stringify(result.meta)}}`;
}
