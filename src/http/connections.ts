import type { Server } from 'node:http';

interface Log {
  warn(obj: object, msg: string): void;
}

/** At most one warning per this many ms while connections are being refused. */
const WARN_EVERY_MS = 10_000;

/**
 * Keeps a connection flood from ending the process: a cap on open connections (Node
 * refuses the excess at accept), and accept errors (EMFILE/ENFILE when descriptors run
 * out anyway) logged instead of thrown: an `error` event without a listener would end
 * the process. Both are logged at most once per WARN_EVERY_MS with a count.
 */
export function guardConnections(server: Server, maxConnections: number, log: Log): void {
  server.maxConnections = maxConnections;
  let dropped = 0;
  let failed = 0;
  let lastWarn = 0;
  const report = () => {
    const now = Date.now();
    if (now - lastWarn < WARN_EVERY_MS) return;
    lastWarn = now;
    log.warn({ dropped, acceptErrors: failed, maxConnections }, 'refusing connections: the server is full');
    dropped = 0;
    failed = 0;
  };
  server.on('drop', () => {
    dropped++;
    report();
  });
  server.on('error', (err: NodeJS.ErrnoException) => {
    // Errors of listen() itself are fastify's to report; these come after it, per connection.
    if (err.syscall !== 'accept') return;
    failed++;
    report();
  });
}
