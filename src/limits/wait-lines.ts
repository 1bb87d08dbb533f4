/** How often the head of a line asks again when no local release woke it (slots held elsewhere). */
const POLL_MS = 50;

interface Waiter {
  wake: () => void;
}

/**
 * Runs that met a cap wait here for a slot, first come first served, for a bounded time,
 * one line per key: a client's runs past the per-client cap (key: tool and client), a
 * tool's runs past its per-instance cap (key: tool). An agent firing ten calls at once
 * gets four running and six waiting their turn instead of six instant refusals, and one
 * client's line never delays another client's runs. The head of a line tries again when
 * a run of its key ends here (`notify`), and every POLL_MS in case the slot was freed on
 * another instance.
 */
export class WaitLines {
  private readonly lines = new Map<string, Waiter[]>();

  /**
   * Calls `attempt` whenever this waiter is at the head of `key`'s line, until it returns
   * a value or `deadline` (ms since the epoch) passes; null when it passed.
   */
  async acquire<T>(key: string, deadline: number, attempt: () => Promise<T | null>): Promise<T | null> {
    let line = this.lines.get(key);
    if (!line) {
      line = [];
      this.lines.set(key, line);
    }
    const me: Waiter = { wake: () => {} };
    line.push(me);
    try {
      for (;;) {
        if (line[0] === me) {
          const got = await attempt();
          if (got !== null) return got;
        }
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(POLL_MS, left));
          me.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      line.splice(line.indexOf(me), 1);
      if (line.length === 0) this.lines.delete(key);
      else line[0]!.wake();
    }
  }

  /** A run of `key` ended here: its line's head may take the slot now. */
  notify(key: string): void {
    this.lines.get(key)?.[0]?.wake();
  }
}
