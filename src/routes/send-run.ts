import type { FastifyReply } from 'fastify';
import { cacheStatusHeader } from '../cache/cache-status.js';
import { sendError } from '../http/send-error.js';
import type { RunResult, RunSuccess } from '../run/run-types.js';

/**
 * A run's result as an HTTP answer: the ToolRunSuccess body with the rate headers, its
 * ETag and, when the cache was consulted, Cache-Status (docs/api.md, "Result cache and
 * ETags"), or 304 with the same
 * headers and no body when the caller's If-None-Match named the ETag; or the ToolRunError.
 */
export function sendRun(reply: FastifyReply, result: RunResult): FastifyReply {
  if (!result.ok) return sendError(reply, result.error);
  reply.request.toolId = result.toolId;
  reply.headers(result.rate.headers);
  // Cache-Status only where the cache handled the request (RFC 9211: a cache adds it): a
  // bypass adds nothing, and each header costs every answer of the default configuration.
  if (result.cache.status !== 'bypass') reply.header('Cache-Status', cacheStatusHeader(result.cache));
  if (result.etag) reply.header('ETag', result.etag);
  if (result.notModified) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(successJson(result));
}

/** `{"ok":true,"result":…,"runtime":…}` with the result as the worker serialised it. */
export function successJson(result: RunSuccess): string {
  return `{"ok":true,"result":${result.resultJson},"runtime":${JSON.stringify(result.meta)}}`;
}
