import fp from 'fastify-plugin';
import { idsOf } from '../telemetry/spans.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tool a request ran (or tried to), for the access log. */
    toolId: string | null;
    /** The errorCode of a non-2xx answer, for the access log. */
    errorCode: string | null;
  }
}

/** Log levels at which an info line is not written. */
const ABOVE_INFO = new Set(['warn', 'error', 'fatal', 'silent']);

/** Longest URL written to the log: a 16 kB query string is not worth its bytes there. */
const URL_LOG_MAX = 200;

/**
 * Query parameters that may carry a credential. The hub reads API keys from headers only
 * (src/plugins/api-keys.ts, docs/operations.md "Securing the hub"), so a key sent in the
 * query string is refused; it must not land in the log either (`key`, `api_key`,
 * `x-api-key`, `access_token`, `token`, `auth`, `secret`, `password`, ...).
 */
const SECRET_PARAM =
  /^(?:x[-_]?)?(?:api[-_]?)?key$|^(?:access|auth|id|refresh|bearer)?[-_]?token$|^auth(?:orization)?$|^(?:client[-_]?)?secret$|^pass(?:word)?$/i;
/** Cheap test before the query is split: a name that may match SECRET_PARAM, or any escape. */
const MAYBE_SECRET = /key|token|auth|secret|pass|%/i;

/** The URL with the value of every credential-like query parameter replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0 || !MAYBE_SECRET.test(url.slice(q))) return url;
  const pairs = url.slice(q + 1).split('&');
  const redacted = pairs.map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    const name = pair.slice(0, eq);
    return SECRET_PARAM.test(decodeName(name)) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q + 1)}${redacted.join('&')}`;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).trim();
  } catch {
    return name;
  }
}

/**
 * One access line per request, at info: client address, method, URL (credentials redacted,
 * cut), status, time, and the toolId and errorCode when there is one, so an operator can
 * grep who called what and why it failed.
 */
export default fp(
  async (app) => {
    app.decorateRequest('toolId', null);
    app.decorateRequest('errorCode', null);
    app.addHook('onResponse', (request, reply, done) => {
      // Below info (LOG_LEVEL=warn) the line is never written: do not build it either.
      if (ABOVE_INFO.has(request.log.level)) return done();
      // Redacted before the cut, so that no part of a key survives it.
      const full = redactUrl(request.url);
      const url = full.length > URL_LOG_MAX ? `${full.slice(0, URL_LOG_MAX)}…` : full;
      const line: Record<string, unknown> = {
        client: request.ip,
        method: request.method,
        url,
        statusCode: reply.statusCode,
        ms: reply.elapsedTime,
      };
      if (request.keyOwner) line.keyId = request.keyOwner.id;
      if (request.toolId !== null) line.toolId = request.toolId;
      if (request.errorCode !== null) line.errorCode = request.errorCode;
      // With tracing on: the request's trace (docs/operations.md, "Traces").
      if (request.trace) Object.assign(line, idsOf(request.trace.span));
      // An MCP message array: every call by name, with its own request id.
      if (request.mcpCalls && request.mcpCalls.length > 1) line.calls = request.mcpCalls;
      request.log.info(line, 'request completed');
      done();
    });
  },
  { name: 'toolhub-access-log' },
);
