import cors from '@fastify/cors';
import fp from 'fastify-plugin';
import { HEADERS } from '../catalogue/openapi-responses.js';

/** `*`, or the allowed origins as browsers send them (scheme://host[:port], default port left out). */
export type CorsOrigins = '*' | ReadonlySet<string>;

/** CORS_ORIGINS (src/config/env.ts checks its shape) → the allowed origins; null: CORS off. */
export function corsOrigins(value: string | undefined): CorsOrigins | null {
  const listed = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!listed.length) return null;
  if (listed.includes('*')) return '*';
  return new Set(listed.map((o) => new URL(o).origin));
}

/**
 * Headers a page on an allowed origin may read: the documented ones (rate limit,
 * Retry-After, Allow, x-request-id), the 401's WWW-Authenticate and the catalogue's ETag.
 */
export const EXPOSED_HEADERS = [...Object.keys(HEADERS), 'WWW-Authenticate', 'ETag'];

/**
 * CORS for browser clients on other origins (docs/api.md, "Browser clients and CORS"), off
 * unless CORS_ORIGINS is set: then @fastify/cors answers a preflight from an allowed origin
 * (204, in its onRequest hook, before API keys and the limits, since a browser sends no
 * credentials on a preflight) and adds Access-Control-Allow-Origin to every answer to that
 * origin, errors included. A request with no Origin or another one gets no CORS header at
 * all, and an OPTIONS that is no allowed preflight gets what it gets with CORS off: the
 * not-found handler's 405 with Allow (404 on an unknown path). No credentials: the hub has no
 * cookies, and a key goes in a header the preflight allows.
 */
export default fp(
  async (app) => {
    const allowed = corsOrigins(app.hubConfig.env.CORS_ORIGINS);
    if (!allowed) return;
    await app.register(cors, {
      origin: (origin, cb) => {
        if (!origin) return cb(null, false);
        cb(null, allowed === '*' ? '*' : allowed.has(origin));
      },
      methods: ['GET', 'HEAD', 'POST'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      // An allowed origin's OPTIONS without Access-Control-Request-Method gets 204 too, not the
      // plugin's text/plain 400: every error of the hub is a ToolRunError (docs/api.md, "Errors").
      strictPreflight: false,
    });
  },
  { name: 'toolhub-cors', dependencies: ['toolhub-errors'] },
);
