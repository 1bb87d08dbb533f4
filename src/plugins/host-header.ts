import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { hostLines, isValidHost } from '../http/host-header.js';
import { quote } from '../shared/quote.js';

/**
 * A malformed Host is refused on every route, first thing (docs/api.md, "Before the limits:
 * junk, pressure, shutdown"): 400 INVALID_INPUT, counted as junk like any 400, before a
 * route builds a URL from it (`Host: x@127.0.0.1` used to end in a 500 on /mcp). Health and
 * metrics are not exempt: every probe the deployment files configure (kubelet's httpGet,
 * the Dockerfile's fetch) sends `address:port`, and a probe that sends a broken Host should
 * fail where it can be seen. The connection is closed: its body is never read.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      const problem = hostProblem(request.raw);
      if (problem === null) return done();
      done(new HubError('INVALID_INPUT', problem, { headers: { Connection: 'close' } }));
    });
  },
  { name: 'toolhub-host-header', dependencies: ['toolhub-errors'] },
);

/** What is wrong with a request's Host (RFC 9112 §3.2), or null. */
export function hostProblem(raw: IncomingMessage): string | null {
  const host = raw.headers.host;
  if (host === undefined) {
    // HTTP/1.0 has no Host header (RFC 1945): such clients keep working. The server leaves
    // HTTP/1.1 without one to this hook (requireHostHeader: false in src/app.ts).
    if (raw.httpVersionMajor === 1 && raw.httpVersionMinor === 0) return null;
    return 'the Host header is missing';
  }
  if (!isValidHost(host))
    return `the Host header ${quote(host)} is not a host[:port] (RFC 9110, section 7.2)`;
  if (hostLines(raw.rawHeaders) > 1) return 'the request has more than one Host header';
  return null;
}
