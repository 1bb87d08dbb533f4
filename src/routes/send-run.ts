import type { FastifyReply, FastifyRequest } from 'fastify';
import { cacheStatusHeader } from '../cache/cache-status.js';
import { type CacheDirectives, readCacheDirectives } from '../cache/request-directives.js';
import { sendError } from '../http/send-error.js';
import { successJson } from '../run/answer-json.js';
import type { RunResult } from '../run/run-types.js';

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
  const cache = result.cache;
  if (cache.status !== 'bypass') reply.header('Cache-Status', cacheStatusHeader(cache));
  // RFC 9111 5.1: how long ago the answer was computed, when it came from the cache.
  if (cache.status === 'hit' && cache.layer !== 'etag' && cache.ageSec !== undefined)
    reply.header('Age', cache.ageSec);
  if (result.etag) reply.header('ETag', result.etag);
  if (result.notModified) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(successJson(result));
}

/** The request's Cache-Control (and Pragma) directives for the result cache, on every HTTP door alike. */
export function cacheDirectivesOf(request: FastifyRequest): CacheDirectives | undefined {
  return readCacheDirectives(request.headers['cache-control'], request.headers.pragma);
}
