import fp from 'fastify-plugin';
import { blockedError, REFUSAL_STATUSES, RefusalCounter } from '../http/refusals.js';

declare module 'fastify' {
  interface FastifyInstance {
    refusals: RefusalCounter;
  }
  interface FastifyRequest {
    /** The route counted this request's junk itself (message by message, item by item). */
    junkCounted: boolean;
  }
}

/** Health and metrics answer a blocked address too: its operator's probes may share it. */
const EXEMPT = /^\/(healthz|readyz|metrics)\/?(\?|$)/;

/**
 * Junk costs its sender (docs/api.md, "Before the limits: junk, pressure, shutdown"): requests refused before the rate limiter are
 * counted per client, and past REFUSAL_LIMIT a minute the client is answered 429
 * RATE_LIMITED in onRequest, before its body is read, and the connection is closed.
 */
export default fp<{ limit: number }>(
  async (app, opts) => {
    const refusals = new RefusalCounter(opts.limit);
    app.decorate('refusals', refusals);
    app.decorateRequest('junkCounted', false);
    if (opts.limit === 0) return;
    app.addHook('onRequest', (request, _reply, done) => {
      const wait = refusals.blockedFor(request.ip);
      if (wait === 0 || EXEMPT.test(request.url)) return done();
      done(blockedError(opts.limit, wait));
    });
    app.addHook('onResponse', (request, reply, done) => {
      // A refusal that passed the rate limiter is counted there already.
      if (
        REFUSAL_STATUSES.has(reply.statusCode) &&
        !request.junkCounted &&
        !reply.hasHeader('x-ratelimit-limit')
      ) {
        refusals.count(request.ip);
      }
      done();
    });
  },
  { name: 'toolhub-refusals', dependencies: ['toolhub-errors'] },
);
