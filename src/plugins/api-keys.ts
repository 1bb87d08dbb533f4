import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiKeys, type KeyOwner } from '../auth/api-keys.js';
import { HubError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** null: API keys are off (no API_KEYS_FILE). */
    apiKeys: ApiKeys | null;
  }
  interface FastifyRequest {
    /** The key's owner when the request carried a valid key. */
    keyOwner: KeyOwner | null;
  }
  interface FastifyContextConfig {
    /** A route that runs tools: it needs a key when keys are on. */
    toolSurface?: boolean;
  }
}

/** Two headers naming two different keys: which one is meant cannot be told. */
const TWO_KEYS = Symbol('two keys');

/**
 * The key a request presents: `Authorization: Bearer <key>` or `x-api-key: <key>`; both
 * may be sent when they name the same key, never two different ones.
 */
function presentedKey(request: FastifyRequest): string | null | typeof TWO_KEYS {
  const auth = request.headers.authorization;
  const bearer =
    typeof auth === 'string' && /^Bearer\s+\S/i.test(auth) ? auth.replace(/^Bearer\s+/i, '').trim() : null;
  const header = request.headers['x-api-key'];
  const named = typeof header === 'string' && header.length > 0 ? header : null;
  if (bearer !== null && named !== null && bearer !== named) return TWO_KEYS;
  return bearer ?? named;
}

/**
 * API keys (docs/operations.md, "Securing the hub"): off unless API_KEYS_FILE is set. With
 * keys on, every route that runs tools (generic runtime, dedicated endpoints, batch requests, MCP)
 * needs a valid key: 401 INVALID_INPUT with `WWW-Authenticate: Bearer` otherwise. Health,
 * metrics, the catalogue, the docs and the tool pages stay open. The key's id then names
 * the client for the limits (one bucket for one consumer across addresses and replicas).
 */
export default fp(
  async (app) => {
    const path = app.hubConfig.env.API_KEYS_FILE;
    const keys = path ? new ApiKeys(path) : null;
    app.decorate('apiKeys', keys);
    app.decorateRequest('keyOwner', null);
    if (!keys) return;
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config?.toolSurface !== true) return done();
      const presented = presentedKey(request);
      const owner = typeof presented === 'string' ? keys.identify(presented) : null;
      if (owner) {
        request.keyOwner = owner;
        return done();
      }
      const why =
        presented === null
          ? 'an API key is required'
          : presented === TWO_KEYS
            ? 'Authorization and x-api-key name two different keys'
            : 'the API key is not known';
      done(
        new HubError(
          'INVALID_INPUT',
          `${why}: send it as "Authorization: Bearer <key>" or "x-api-key: <key>"`,
          { status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="tool-hub"' } },
        ),
      );
    });
  },
  { name: 'toolhub-api-keys', dependencies: ['toolhub-errors'] },
);
