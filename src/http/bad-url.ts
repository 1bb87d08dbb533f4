import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HubError } from '../errors.js';
import { quote } from '../shared/quote.js';
import { blockedError, type JunkCounter, noRouteError } from './junk.js';
import { sendError } from './send-error.js';

/**
 * fastify's `frameworkErrors`: a path its router cannot read (a malformed percent-escape such
 * as `/api/%zz`) or with a parameter past `maxParamLength` gets a ToolRunError like every other
 * non-2xx answer, its path cut as every echoed value is, instead of fastify's own body that
 * repeats the whole URL. These requests reach no route, so no hook runs for them: the answer
 * carries its request id and counts as junk here, and a client past JUNK_LIMIT gets its
 * 429 (src/plugins/junk.ts) as it would on a route.
 */
export function frameworkErrorHandler(junk: () => JunkCounter | undefined) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    reply.header('x-request-id', request.id);
    const counter = junk();
    const wait = counter?.blockedFor(request.ip) ?? 0;
    if (counter && wait > 0) {
      sendError(reply, blockedError(counter.limit, wait));
      return;
    }
    counter?.count(request.ip);
    const path = request.url.split('?')[0] ?? '/';
    const err =
      error.code === 'FST_ERR_BAD_URL'
        ? new HubError('INVALID_INPUT', `the path ${quote(path)} holds a malformed percent-escape`)
        : noRouteError(request.method, path);
    sendError(reply, err);
  };
}
