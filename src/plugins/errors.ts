import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_TABLE, type ErrorCode, HubError } from '../errors.js';
import { noRouteError } from '../http/junk.js';
import { sendError } from '../http/send-error.js';
import { quote } from '../shared/quote.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route's methods by path, without the trailing slash (HEAD included). */
    routeMethods: ReadonlyMap<string, ReadonlySet<string>>;
  }
}

/**
 * One error handler reads the error table (src/errors.ts). Every non-2xx answer is a
 * ToolRunError: our own HubErrors, the framework's (bad JSON, wrong content type, body
 * over the cap), unknown routes (404) and wrong methods (405 with `Allow`). 5xx
 * messages stay generic; details go to the log only.
 */
export default fp(
  async (app) => {
    // JSON only: any other body type is 415 (fastify accepts text/plain by default).
    app.removeContentTypeParser('text/plain');
    const methodsByPath = new Map<string, Set<string>>();
    // Also read by test/openapi-routes.test.ts: every route served has its OpenAPI operation.
    app.decorate('routeMethods', methodsByPath as ReadonlyMap<string, ReadonlySet<string>>);
    app.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const key = normalise(route.url);
      const set = methodsByPath.get(key) ?? new Set<string>();
      for (const m of methods) set.add(m);
      methodsByPath.set(key, set);
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HubError) return sendError(reply, error);
      const hubError = fromFramework(error);
      if (hubError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'internal error');
      return sendError(reply, hubError);
    });

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = normalise(request.url.split('?')[0] ?? '/');
      const allowed = methodsByPath.get(path);
      if (allowed && !allowed.has(request.method)) {
        const allow = [...allowed].sort().join(', ');
        return sendError(
          reply,
          new HubError(
            'TOOL_WRONG_SURFACE',
            `${request.method} is not allowed on ${quote(path)}; allowed: ${allow}`,
            {
              status: 405,
              headers: { Allow: allow },
            },
          ),
        );
      }
      return sendError(reply, noRouteError(request.method, path));
    });
  },
  { name: 'toolhub-errors' },
);

/** Maps an error raised by fastify itself (or a bug) onto the table. */
function fromFramework(error: FastifyError): HubError {
  const status = error.statusCode ?? 500;
  const codeFor = (s: number): [ErrorCode, number] => {
    if (s === 413) return ['INPUT_TOO_LARGE', 413];
    if (s === 415) return ['INVALID_INPUT', 415];
    if (s === 404) return ['INVALID_INPUT', 404];
    if (s === 405) return ['TOOL_WRONG_SURFACE', 405];
    if (s >= 400 && s < 500) return ['INVALID_INPUT', 400];
    return ['INTERNAL_ERROR', 500];
  };
  const [code, httpStatus] = codeFor(status);
  const message = code === 'INTERNAL_ERROR' ? 'internal error' : clientMessage(error);
  return new HubError(code, message, { status: httpStatus, cause: error });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported content type; send application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is larger than the hard cap';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'the JSON body is empty';
    default:
      return error.message || ERROR_TABLE.INVALID_INPUT.when;
  }
}

/** Route keys without the trailing slash and with parameters generalised. */
function normalise(url: string): string {
  const trimmed = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
  return trimmed || '/';
}
