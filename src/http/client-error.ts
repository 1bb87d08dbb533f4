import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { type ErrorCode, errorJson, HubError } from '../errors.js';
import { isDraining } from './upload-drain.js';

/** What Node's HTTP parser refused, in words a client can act on (llhttp error codes). */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'the method is not a valid HTTP token',
  HPE_INVALID_HEADER_TOKEN:
    'a header name or value holds an invalid character (obs-fold continuation lines are not accepted)',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding may not be sent together',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding is not valid',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length is not valid',
  HPE_CR_EXPECTED: 'lines must end with CRLF (a bare LF is not accepted)',
  HPE_LF_EXPECTED: 'lines must end with CRLF (a bare CR is not accepted)',
  HPE_INVALID_VERSION: 'the HTTP version is not valid',
  HPE_INVALID_URL: 'the request target is not a valid URL',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size is not valid',
};

export interface ClientErrorOptions {
  requestTimeoutMs: number;
  /** Called with the peer address of every refused request (the junk counter). */
  onJunk: (address: string) => void;
}

/**
 * fastify's `clientErrorHandler`: requests Node's HTTP parser refuses before they reach
 * fastify (malformed request lines or headers, headers over the limit, a stalled upload)
 * get a ToolRunError like every other non-2xx answer, then the socket is closed.
 */
export function clientErrorHandler(opts: ClientErrorOptions) {
  return (err: ConnectionError, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // Answered and counted already: the rest of a refused upload ended short or late.
    if (isDraining(socket)) return void socket.destroy();
    const hubError = toHubError(err, opts.requestTimeoutMs);
    if (socket.remoteAddress) opts.onJunk(socket.remoteAddress);
    if (socket.writable) {
      const body = errorJson(hubError);
      socket.write(
        `HTTP/1.1 ${hubError.status} ${STATUS_TEXT[hubError.status] ?? 'Bad Request'}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function toHubError(err: ConnectionError, requestTimeoutMs: number): HubError {
  const refuse = (code: ErrorCode, status: number, message: string) =>
    new HubError(code, message, { status, headers: { Connection: 'close' } });
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return refuse('TIMEOUT', 408, `the request did not arrive within ${requestTimeoutMs} ms`);
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return refuse('INPUT_TOO_LARGE', 431, 'the request headers are larger than the server accepts');
  }
  // fastify types rawPacket as a JSON-ified Buffer; Node hands over the Buffer itself.
  const raw: unknown = err.rawPacket;
  if (Buffer.isBuffer(raw) && raw.subarray(0, 14).toString('latin1') === 'PRI * HTTP/2.0') {
    return refuse('INVALID_INPUT', 400, 'HTTP/2 with prior knowledge is not served here; use HTTP/1.1');
  }
  const why = (err.code && PARSE_ERRORS[err.code]) ?? 'the request is not valid HTTP/1.1';
  return refuse('INVALID_INPUT', 400, `malformed HTTP request: ${why}`);
}
