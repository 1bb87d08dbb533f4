import type { IncomingMessage, Server } from 'node:http';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';
import { drainBeforeClose } from '../http/upload-drain.js';
import { quote } from '../shared/quote.js';

const MiB = 1024 * 1024;
/** How long a refused upload may still be read (docs/api.md, "Before the limits"). */
const DRAIN_MAX_MS = 10_000;

const IDENTITY = /^\s*identity\s*$/i;

/** Whether a body comes with the request (a length above 0, or chunks). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** Marks a request whose `Expect` names something other than 100-continue. */
const UNMET = Symbol('toolhub.unmetExpectation');
type Expecting = IncomingMessage & { [UNMET]?: true };

/**
 * The body cap, BODY_LIMIT_BYTES, answered so that the client always reads its 413
 * (docs/api.md, "Before the limits: junk, pressure, shutdown"):
 *
 * - a declared Content-Length over the cap is refused in onRequest, before anything reads
 *   the body, on every route (fastify's body parser would find the same, but only on routes
 *   that parse a body);
 * - `Expect: 100-continue` gets `100 Continue` only when the declared length fits: with a
 *   `checkContinue` listener Node no longer sends it by itself, and a client told to go on
 *   would be refused mid-upload (RFC 9110 §10.1.1); any other expectation is a 417
 *   ToolRunError (Node's own answer would be a bare 417);
 * - a body in a content coding other than identity is 415 with `Accept-Encoding: identity`
 *   (it would otherwise be read as if it were plain: gzip as malformed JSON);
 * - every answer sent before its request's body has arrived drains the rest of the upload,
 *   bounded, before the connection closes (src/http/upload-drain.ts): a socket closed with
 *   unread bytes resets, and a client still writing would see EPIPE, not the answer.
 */
export default fp(
  async (app) => {
    const cap = app.hubConfig.env.BODY_LIMIT_BYTES;
    const declared = (req: IncomingMessage) => Number(req.headers['content-length']);
    // An HTTP/1.1 server: fastify's inferred server type is wider.
    const server = app.server as unknown as Server;
    server.on('checkContinue', (req, res) => {
      if (!(declared(req) > cap)) res.writeContinue();
      server.emit('request', req, res);
    });
    // Any other expectation: answered 417 by the hub (counted as junk, a ToolRunError), not
    // by Node's bare default.
    server.on('checkExpectation', (req, res) => {
      (req as Expecting)[UNMET] = true;
      server.emit('request', req, res);
    });
    app.addHook('onRequest', (request, _reply, done) => {
      if ((request.raw as Expecting)[UNMET]) {
        return done(
          new HubError(
            'INVALID_INPUT',
            `the expectation ${quote(request.headers.expect)} cannot be met: only 100-continue is understood`,
            { status: 417 },
          ),
        );
      }
      const coding = request.headers['content-encoding'];
      if (coding !== undefined && !IDENTITY.test(coding) && hasBody(request.raw)) {
        // RFC 9110 §15.5.16: a content coding the server does not take is a 415, naming what it takes.
        return done(
          new HubError(
            'INVALID_INPUT',
            `the content coding ${quote(coding)} is not accepted: send the body uncompressed`,
            { status: 415, headers: { 'Accept-Encoding': 'identity' } },
          ),
        );
      }
      const length = declared(request.raw);
      if (!(length > cap)) return done();
      done(
        new HubError(
          'INPUT_TOO_LARGE',
          `the request body (${length} bytes) is larger than the hard cap of ${cap} bytes`,
          { headers: { Connection: 'close' } },
        ),
      );
    });
    // Four bodies' worth: an upload refused at its headers reads its answer whole.
    const bounds = { maxBytes: Math.max(4 * cap, 16 * MiB), maxMs: DRAIN_MAX_MS };
    app.addHook('onSend', (request, _reply, payload, done) => {
      if (!request.raw.complete) drainBeforeClose(request.raw, bounds);
      done(null, payload);
    });
  },
  { name: 'toolhub-upload-limit', dependencies: ['toolhub-errors'] },
);
