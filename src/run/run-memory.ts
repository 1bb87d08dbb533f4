import { HubError } from '../errors.js';
import {
  type Admission,
  type MemoryBudget,
  type MemoryKind,
  type Reservation,
  RUN_EXPANSION,
} from '../http/memory-budget.js';

type Refused = Extract<Admission, { ok: false }>;
type Headers = Record<string, string | number>;

/**
 * The working memory of runs (docs/operations.md, "Memory admission"): a run reserves
 * RUN_EXPANSION times its input bytes before it goes to the pool and gives it back when it
 * ends. A run that does not fit waits, as runs past a cap do (docs/api.md, "Concurrency
 * caps and waiting lines"), woken whenever memory is given back, for up to CAP_WAIT_MS;
 * then it is refused with CONCURRENCY_LIMIT (429: the client's share is in use; 503: the
 * instance's budget). Runs of small inputs reserve little and fit beside the heavy ones.
 */
export class RunMemory {
  private readonly waiting = new Set<() => void>();

  constructor(
    private readonly budget: MemoryBudget,
    private readonly waitMs: number,
  ) {
    budget.whenReleased(() => {
      for (const wake of this.waiting) wake();
    });
  }

  /** The run's reservation: at once when it fits (no promise), else after its wait. */
  take(client: string, inputBytes: number, headers: Headers): Reservation | Promise<Reservation> {
    const bytes = inputBytes * RUN_EXPANSION;
    const first = this.budget.admit('run', client, bytes);
    return first.ok ? first.reservation : this.wait(client, bytes, first, headers);
  }

  private async wait(client: string, bytes: number, first: Refused, headers: Headers): Promise<Reservation> {
    const deadline = Date.now() + this.waitMs;
    let last = first;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) throw memoryRefusal(last, 'run', headers);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiting.add(wake);
      });
      const again = this.budget.admit('run', client, bytes);
      if (again.ok) return again.reservation;
      last = again;
    }
  }
}

const MiB = 1024 * 1024;

/** CONCURRENCY_LIMIT for memory: 429 when the client's share is in use, 503 when the instance's. */
export function memoryRefusal(refused: Refused, kind: MemoryKind, headers: Headers = {}): HubError {
  const held = `${mib(refused.heldBytes)} of the ${mib(refused.budgetBytes)}`;
  const what = kind === 'run' ? 'runs' : 'requests';
  if (refused.scope === 'client') {
    return new HubError(
      'CONCURRENCY_LIMIT',
      `this client's ${what} in flight hold ${held} of memory one client may use; retry when one has ended`,
      { headers: { ...headers, 'Retry-After': 1 } },
    );
  }
  return new HubError(
    'CONCURRENCY_LIMIT',
    `the instance's memory for work in flight is in use (${held}); retry shortly`,
    { status: 503, headers: { ...headers, 'Retry-After': 2 } },
  );
}

function mib(bytes: number): string {
  return `${Math.round(bytes / MiB)} MiB`;
}
