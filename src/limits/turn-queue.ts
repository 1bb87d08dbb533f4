/**
 * Requests of one kind queued in this tick, sent together (in chunks of `perCall`) on the
 * next: with ioredis auto-pipelining, one write and one reply for a turn's requests.
 */
export class TurnQueue<Req, Rep> {
  private queue: { req: Req; resolve: (r: Rep) => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly perCall: number,
    private readonly send: (reqs: Req[]) => Promise<Rep[]>,
  ) {}

  push(req: Req): Promise<Rep> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ req, resolve, reject }) === 1) process.nextTick(() => this.flush());
    });
  }

  private flush(): void {
    const all = this.queue;
    this.queue = [];
    for (let i = 0; i < all.length; i += this.perCall) {
      const calls = all.slice(i, i + this.perCall);
      this.send(calls.map((c) => c.req)).then(
        (reps) => {
          for (const [j, c] of calls.entries()) c.resolve(reps[j]!);
        },
        (err: unknown) => {
          for (const c of calls) c.reject(err);
        },
      );
    }
  }
}

let turn: Promise<void> | null = null;

/**
 * Resolves once this event-loop turn's I/O callbacks have run (setImmediate). Each request
 * arrives in a socket callback of its own, so commands issued there go out one write per
 * request; issued after this, every request of the turn shares one write and one reply.
 */
export function endOfTurn(): Promise<void> {
  if (!turn) {
    turn = new Promise((resolve) =>
      setImmediate(() => {
        turn = null;
        resolve();
      }),
    );
  }
  return turn;
}
