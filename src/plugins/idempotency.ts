import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { callerOf } from '../http/caller.js';
import { fingerprintOf, readIdempotencyKey, scopeOf } from '../idempotency/idempotency-key.js';
import { MemoryIdempotencyStore } from '../idempotency/memory-store.js';
import { RedisIdempotencyStore } from '../idempotency/redis-store.js';
import type { IdempotencyStore, StoredAnswer } from '../idempotency/store.js';
import { jobsConnection } from '../jobs/connection.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request claimed (its scope and fingerprint), until its answer is kept. */
    idempotency: { scope: string; fingerprint: string } | null;
  }
}

/** A claim outlives its request this long at most: a process that dies mid-run frees its keys after it. */
const PENDING_MS = 120_000;
/** The headers a replay repeats: what the answer is, not how the limits stood then (RateLimit would no longer be true). */
const KEPT_HEADERS = ['content-type', 'location', 'etag'];
/** Answers not kept: refused before anything ran (429, 503) or failed inside the hub (5xx): the retry runs. */
const keeps = (status: number) => status < 500 && status !== 429 && status !== 409;

/**
 * Idempotency-Key on every POST that runs tools (docs/api.md, "Idempotency-Key"): the
 * generic runtime, the dedicated endpoints, batch requests and jobs. The same key and request
 * replay the first answer without running or charging again; the same key with another
 * request is 422; a retry while the first runs is 409. Keys are per caller, kept
 * IDEMPOTENCY_TTL_SEC. /mcp has its own retries (JSON-RPC ids, tasks) and takes none.
 */
export default fp(
  async (app) => {
    const { env, redis } = app.hubConfig;
    const connection = redis ? jobsConnection(redis) : null;
    const store: IdempotencyStore = connection
      ? new RedisIdempotencyStore(connection, env.REDIS_PREFIX)
      : new MemoryIdempotencyStore(64 * 1024 * 1024);
    app.decorateRequest('idempotency', null);
    if (connection) app.addHook('onClose', async () => connection.disconnect());

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'POST' || request.routeOptions.config?.toolSurface !== true) return;
      if (request.routeOptions.url === '/mcp') return;
      const key = readIdempotencyKey(request.headers['idempotency-key']);
      if (key === undefined) return;
      const scope = scopeOf(callerOf(request).client, key);
      const fingerprint = fingerprintOf(request.method, request.url, request.body);
      const found = await store.begin(scope, fingerprint, PENDING_MS);
      if (found.kind === 'new') {
        request.idempotency = { scope, fingerprint };
        return;
      }
      if (found.kind === 'replay') return replay(reply, found.answer);
      if (found.kind === 'mismatch') {
        throw new HubError(
          'INVALID_INPUT',
          'this Idempotency-Key was used with another request (method, path or body); use a new key for a new request',
          { status: 422 },
        );
      }
      throw new HubError(
        'CONCURRENCY_LIMIT',
        'the first request with this Idempotency-Key is still running; retry shortly',
        {
          status: 409,
          headers: { 'Retry-After': 1 },
        },
      );
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotency;
      if (!claim) return payload;
      request.idempotency = null;
      const status = reply.statusCode;
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : null;
      try {
        if (body === null || !keeps(status) || body.length > env.JOBS_RESULT_MAX_BYTES)
          await store.abandon(claim.scope);
        else
          await store.complete(
            claim.scope,
            claim.fingerprint,
            keptAnswer(reply, status, body),
            env.IDEMPOTENCY_TTL_SEC,
          );
      } catch (err) {
        // The answer goes out; the key lapses with its claim, and a retry then runs.
        request.log.warn({ err }, 'idempotency: the answer could not be kept');
      }
      return payload;
    });
  },
  { name: 'toolhub-idempotency', dependencies: ['toolhub-api-keys', 'toolhub-errors'] },
);

function keptAnswer(reply: FastifyReply, status: number, body: string): StoredAnswer {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status, headers, body };
}

function replay(reply: FastifyReply, answer: StoredAnswer): FastifyReply {
  return reply
    .code(answer.status)
    .headers(answer.headers)
    .header('Idempotent-Replayed', 'true')
    .send(answer.body);
}
