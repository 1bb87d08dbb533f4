import fp from 'fastify-plugin';

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
 * One access line per request, at info: client address, method, URL (cut), status, time,
 * and the toolId and errorCode when there is one, so an operator can grep who called what
 * and why it failed.
 */
export default fp(
  async (app) => {
    app.decorateRequest('toolId', null);
    app.decorateRequest('errorCode', null);
    app.addHook('onResponse', (request, reply, done) => {
      // Below info (LOG_LEVEL=warn) the line is never written: do not build it either.
      if (ABOVE_INFO.has(request.log.level)) return done();
      const url = request.url.length > URL_LOG_MAX ? `${request.url.slice(0, URL_LOG_MAX)}…` : request.url;
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
      // An MCP batch: every call by name, with its own request id.
      if (request.mcpCalls && request.mcpCalls.length > 1) line.calls = request.mcpCalls;
      request.log.info(line, 'request completed');
      done();
    });
  },
  { name: 'toolhub-access-log' },
);
