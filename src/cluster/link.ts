import cluster from 'node:cluster';
import { isMessage, type Message, type Question } from './messages.js';

/** How long a process waits for the primary's answer (a scrape, a readiness probe). */
const ASK_TIMEOUT_MS = 5000;

/**
 * An API process's end of the IPC channel to the primary (HUB_PROCESSES > 1; src/cluster/
 * primary.ts): it answers the primary's questions about this process (`provide`) and asks
 * the primary for the box's view (`ask`). Null in a process of its own.
 */
export class ProcessLink {
  private static made: ProcessLink | null | undefined;
  private readonly providers = new Map<Question, () => unknown>();
  private readonly waiting = new Map<number, (value: unknown) => void>();
  private nextId = 0;

  static current(): ProcessLink | null {
    if (ProcessLink.made === undefined) ProcessLink.made = cluster.isWorker ? new ProcessLink() : null;
    return ProcessLink.made;
  }

  private constructor() {
    process.on('message', (m: unknown) => {
      if (!isMessage(m)) return;
      if (m.toolhub === 'tell') void this.tell(m.id, m.what);
      else if (m.toolhub === 'answer') {
        this.waiting.get(m.id)?.(m.value);
        this.waiting.delete(m.id);
      }
    });
  }

  /** What this process answers when the primary asks `what` (its metrics, its readiness). */
  provide(what: Question, answer: () => unknown): void {
    this.providers.set(what, answer);
  }

  /**
   * The primary's answer over every process; rejects when none comes in time. `own`: this
   * process's own part, sent along so that the primary need not ask it back.
   */
  ask(what: Question, own?: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer from the primary process to '${what}' within ${ASK_TIMEOUT_MS} ms`));
      }, ASK_TIMEOUT_MS);
      this.waiting.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
      process.send?.({ toolhub: 'ask', id, what, own } satisfies Message);
    });
  }

  private async tell(id: number, what: Question): Promise<void> {
    const provider = this.providers.get(what);
    let value: unknown = null;
    try {
      value = provider ? await provider() : null;
    } catch {
      value = null;
    }
    process.send?.({ toolhub: 'told', id, value });
  }
}
