import fp from 'fastify-plugin';
import { renamedSettingsInUse } from '../config/env.js';
import { blockedError, JUNK_STATUSES, JunkCounter } from '../http/junk.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The junk counter per client (JUNK_LIMIT). */
    junk: JunkCounter;
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
 * counted per client, and past JUNK_LIMIT a minute the client is answered 429
 * RATE_LIMITED in onRequest, before its body is read, and the connection is closed.
 */
export default fp(
  async (app) => {
    const opts = { limit: app.hubConfig.env.JUNK_LIMIT };
    // REFUSAL_LIMIT, JUNK_LIMIT's old name, still works: its operator hears so once, at boot.
    for (const line of renamedSettingsInUse(app.hubConfig.env)) app.log.warn(line);
    const junk = new JunkCounter(opts.limit);
    app.decorate('junk', junk);
    app.decorateRequest('junkCounted', false);
    if (opts.limit === 0) return;
    app.addHook('onRequest', (request, _reply, done) => {
      const wait = junk.blockedFor(request.ip);
      if (wait === 0 || EXEMPT.test(request.url)) return done();
      done(blockedError(opts.limit, wait));
    });
    app.addHook('onResponse', (request, reply, done) => {
      // An error answered after the rate limiter is counted there already.
      if (
        JUNK_STATUSES.has(reply.statusCode) &&
        !request.junkCounted &&
        !reply.hasHeader('x-ratelimit-limit')
      ) {
        junk.count(request.ip);
      }
      done();
    });
  },
  { name: 'toolhub-junk', dependencies: ['toolhub-errors'] },
);
