import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface DrainBounds {
  /** Bytes of the refused upload read and discarded at most before the connection is cut. */
  maxBytes: number;
  /** Milliseconds at most spent draining before the connection is cut. */
  maxMs: number;
}

/** Sockets whose refused upload is being drained: their late parser errors are not news. */
const draining = new WeakSet<Socket>();

export const isDraining = (socket: Socket): boolean => draining.has(socket);

/**
 * An error answered while the client is still uploading (413 over the body cap, 429 for
 * junk, 503 while closing: docs/api.md, "Before the limits: junk, pressure, shutdown")
 * must reach the client. Node ends such a connection with `socket.destroySoon()` as soon as
 * the answer is written; a socket closed with unread bytes sends a reset, and the client,
 * still writing, sees EPIPE or ECONNRESET instead of the answer it has not read yet.
 *
 * So for this request's socket `destroySoon` becomes: half-close (the answer and a FIN go
 * out), read and discard the rest of the upload, then close, once the body has ended or the
 * client has gone, or at `maxBytes` or `maxMs`, whichever comes first: a refused upload
 * costs the hub a bounded amount of reading, never an unbounded wait.
 */
export function drainBeforeClose(req: IncomingMessage, bounds: DrainBounds): void {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  const original = socket.destroySoon;
  if (typeof original !== 'function' || draining.has(socket)) return;
  socket.destroySoon = function destroySoon(this: Socket) {
    if (req.complete || req.destroyed) return original.call(this);
    draining.add(socket);
    let read = 0;
    const cut = () => {
      clearTimeout(timer);
      req.removeListener('data', count);
      socket.destroy();
    };
    // The upload is over: close once the answer is flushed, as Node would have.
    const done = () => (socket.writableFinished ? cut() : socket.once('finish', cut));
    const timer = setTimeout(cut, bounds.maxMs);
    // Node has already resumed the request to discard its body (`req._dump()`), or the
    // body parser left it flowing; this listener only counts what goes by.
    const count = (chunk: Buffer) => {
      read += chunk.length;
      if (read > bounds.maxBytes) cut();
    };
    req.on('data', count);
    req.once('end', done);
    req.once('close', done);
    socket.once('close', () => clearTimeout(timer));
    socket.end();
  };
}
