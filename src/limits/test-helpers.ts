/**
 * Stalls this thread for `ms` once a call begun in this turn is on its way to Redis: the limiter
 * sends at the end of the turn (src/limits/redis-store.ts, endOfTurn), and ioredis writes in the
 * turn after (auto-pipelining), so the stall starts the turn after that. Redis takes the call in
 * its time and answers; the answer waits unread past the command timeout, as on a loaded machine.
 */
export function stallAfterSend(ms: number): Promise<void> {
  return new Promise((resolve) =>
    setImmediate(() =>
      setImmediate(() => {
        const until = Date.now() + ms;
        while (Date.now() < until);
        resolve();
      }),
    ),
  );
}
