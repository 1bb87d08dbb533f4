import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { callerOf } from '../http/caller.js';
import {
  budgetFromEnv,
  declaredBodyBytes,
  MemoryBudget,
  REQUEST_EXPANSION,
  RESULT_EXPANSION,
  type Reservation,
} from '../http/memory-budget.js';
import { memoryRefusal, RunMemory } from '../run/run-memory.js';
import { releaseHeapSoon } from '../shared/heap-release.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** null: memory admission is off (neither MEMORY_BUDGET_BYTES nor PRESSURE_MAX_RSS_BYTES). */
    memoryBudget: MemoryBudget | null;
    /** The runs' share of the memory budget (src/run/run-memory.ts); null when it is off. */
    runMemory: RunMemory | null;
  }
  interface FastifyRequest {
    /** What this request holds in the memory budget; null without a body or with admission off. */
    memory: Reservation | null;
  }
}

export interface MemoryAdmissionOptions {
  MEMORY_BUDGET_BYTES: number;
  MEMORY_CLIENT_SHARE: number;
  PRESSURE_MAX_RSS_BYTES: number;
  BODY_LIMIT_BYTES: number;
  /** Longest wait of a run for memory, as for a cap. */
  CAP_WAIT_MS: number;
}

const MiB = 1024 * 1024;

/**
 * Memory admission of requests (docs/operations.md, "Memory admission"; docs/api.md,
 * "Before the limits"): a request with a body reserves REQUEST_EXPANSION times its declared
 * length, per client and per instance, in onRequest, before the body is read; one that
 * does not fit is refused with CONCURRENCY_LIMIT and Retry-After (429: the client's own
 * requests hold its share; 503: the instance's budget is in use). Load shedding
 * (src/plugins/pressure.ts) sees memory only once it is resident; this refuses what would
 * make it so. Runs reserve their own share through `runMemory` (src/run/facade.ts).
 *
 * A reservation ends when the answer has been written (onResponse) or the connection has
 * gone. A client that leaves mid-run does not end it: the run still holds its memory, so
 * then it ends when the handler answers (onSend, which sees the closed response).
 */
export default fp(
  async (app) => {
    const env: MemoryAdmissionOptions = app.hubConfig.env;
    const on = env.MEMORY_BUDGET_BYTES > 0 || env.PRESSURE_MAX_RSS_BYTES > 0;
    const budget = on ? new MemoryBudget(budgetFromEnv(env, process.memoryUsage.rss())) : null;
    app.decorate('memoryBudget', budget);
    app.decorate('runMemory', budget ? new RunMemory(budget, env.CAP_WAIT_MS) : null);
    app.decorateRequest('memory', null);
    if (!budget) return;
    // Bodies and answers are garbage once their requests have ended; V8 kept them for
    // 20-40 s on an idle API thread. Collected once no request holds memory for a second.
    const idle = () => budget.held('request') === 0;
    budget.whenReleased(() => {
      if (idle()) releaseHeapSoon({ delayMs: 1000, stillIdle: idle });
    });
    // What the process holds at rest is known once it is ready (its workers started).
    app.addHook('onReady', (done) => {
      budget.opts = budgetFromEnv(env, process.memoryUsage.rss());
      const { instanceBytes, clientBytes } = budget.opts;
      app.log.info(
        `memory admission: ${Math.round(instanceBytes / MiB)} MiB for work in flight, ${Math.round(clientBytes / MiB)} MiB per client`,
      );
      done();
    });

    app.addHook('onRequest', (request, reply, done) => {
      const body = declaredBodyBytes(request.headers, env.BODY_LIMIT_BYTES);
      if (body === 0) return done();
      const client = callerOf(request).client;
      const admission = budget.admit('request', client, body * REQUEST_EXPANSION, body * RESULT_EXPANSION);
      if (!admission.ok) return done(memoryRefusal(admission, 'request'));
      request.memory = admission.reservation;
      endWithConnection(request, reply, admission.reservation);
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      const reservation = request.memory;
      if (reservation) {
        // The answer is held twice until the client has read it: the string and its
        // bytes in the socket's buffer.
        if (typeof payload === 'string' || Buffer.isBuffer(payload)) reservation.hold(2 * payload.length);
        if (reply.raw.destroyed) reservation.release();
      }
      done(null, payload);
    });
    app.addHook('onResponse', (request, _reply, done) => {
      request.memory?.release();
      done();
    });
  },
  { name: 'toolhub-memory-admission', dependencies: ['toolhub-errors', 'toolhub-api-keys'] },
);

/**
 * The connection closed before the answer was written: the reservation ends now when no
 * handler can still hold the body (it never arrived whole, or the answer was already on
 * its way), and otherwise when the handler answers (the onSend hook above).
 */
function endWithConnection(request: FastifyRequest, reply: FastifyReply, reservation: Reservation): void {
  reply.raw.once('close', () => {
    if (reply.raw.writableEnded || !request.raw.complete) reservation.release();
  });
}
