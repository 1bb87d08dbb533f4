/**
 * Memory admission (docs/operations.md, "Memory admission"): work is admitted by what it
 * will hold, against a budget per client and one per instance, before it holds it.
 *
 * - A request with a body reserves REQUEST_EXPANSION times its declared length before the
 *   body is read: the body as read and parsed, its copies on the way to the workers and
 *   the results it is expected to hold. Results that come out larger are added as they
 *   are held (the next requests are admitted against them).
 * - A run reserves RUN_EXPANSION times its input bytes before it goes to the pool: the
 *   working memory of the worker that runs it.
 *
 * Both kinds count against the instance's budget; each kind has its own per-client share,
 * so that a client's own requests never keep its runs from starting.
 */

/** Bytes a request holds per byte of body on the API thread, expected results included. */
export const REQUEST_EXPANSION = 6;
/** Of those, result bytes expected per byte of body: larger results are charged as they come. */
export const RESULT_EXPANSION = 2;
/**
 * Resident bytes a run adds per byte of input, measured in the pool (docs/operations.md,
 * "Memory admission"): four concurrent conversions of 0.5 MB documents to YAML or Markdown
 * raised the process's RSS by 175-185 MiB each, ~350 bytes per byte: the worker's heap
 * while it runs and until it collects, and the worker the next run goes to while this one
 * is held.
 */
export const RUN_EXPANSION = 352;

export type MemoryKind = 'request' | 'run';
export type MemoryScope = 'client' | 'instance';

export interface MemoryBudgetOptions {
  /** Bytes everything in flight on the instance may reserve together. */
  instanceBytes: number;
  /** Bytes one client's requests (and, apart, its runs) may reserve together. */
  clientBytes: number;
}

export type Admission =
  | { ok: true; reservation: Reservation }
  | { ok: false; scope: MemoryScope; heldBytes: number; budgetBytes: number };

/** Part of PRESSURE_MAX_RSS_BYTES the derived budget fills, the process at rest included. */
const RSS_SHARE = 0.9;

/**
 * The budgets: MEMORY_BUDGET_BYTES, or 90% of PRESSURE_MAX_RSS_BYTES less what the process
 * holds at rest (`restingRss`, read when it is ready), at least a tenth of it; 0: off.
 */
export function budgetFromEnv(
  env: { MEMORY_BUDGET_BYTES: number; MEMORY_CLIENT_SHARE: number; PRESSURE_MAX_RSS_BYTES: number },
  restingRss: number,
): MemoryBudgetOptions {
  const bound = env.PRESSURE_MAX_RSS_BYTES;
  const instanceBytes =
    env.MEMORY_BUDGET_BYTES || Math.floor(Math.max(bound * RSS_SHARE - restingRss, bound / 10));
  return { instanceBytes, clientBytes: Math.floor(instanceBytes * env.MEMORY_CLIENT_SHARE) };
}

/** The body a request will bring: its declared length, the cap for a chunked one, 0 for none. */
export function declaredBodyBytes(
  headers: { 'content-length'?: string; 'transfer-encoding'?: string },
  bodyLimit: number,
): number {
  const declared = headers['content-length'];
  if (declared !== undefined) {
    const length = Number(declared);
    // Over the cap: refused with 413 before anything reads it (no memory held).
    return Number.isFinite(length) && length > 0 && length <= bodyLimit ? length : 0;
  }
  return headers['transfer-encoding'] === undefined ? 0 : bodyLimit;
}

/**
 * The reservations in flight. One fits while it stays under the client's share and under
 * the instance's budget; one that does not fit is still admitted when nothing else of its
 * kind is held by its client (or on the instance), so that the largest request the body cap
 * allows, or the largest run, is delayed but never refused for good.
 */
export class MemoryBudget {
  private total = 0;
  private readonly kinds: Record<MemoryKind, number> = { request: 0, run: 0 };
  private readonly byClient = new Map<string, number>();
  private readonly released: (() => void)[] = [];

  constructor(public opts: MemoryBudgetOptions) {}

  /** Bytes reserved now on the instance (of one kind, or all). */
  held(kind?: MemoryKind): number {
    return kind ? this.kinds[kind] : this.total;
  }

  /** Bytes reserved now by `client` for its requests or its runs. */
  heldBy(kind: MemoryKind, client: string): number {
    return this.byClient.get(keyOf(kind, client)) ?? 0;
  }

  /** Clients (per kind) holding a reservation now: 0 once everything is released. */
  get holders(): number {
    return this.byClient.size;
  }

  /** Calls `listener` whenever memory is given back (runs waiting for memory try again). */
  whenReleased(listener: () => void): void {
    this.released.push(listener);
  }

  /** Reserves `bytes`, of which `expectedResults` are results; or says which budget is in use. */
  admit(kind: MemoryKind, client: string, bytes: number, expectedResults = 0): Admission {
    const key = keyOf(kind, client);
    const mine = this.byClient.get(key) ?? 0;
    if (mine > 0 && mine + bytes > this.opts.clientBytes) {
      return { ok: false, scope: 'client', heldBytes: mine, budgetBytes: this.opts.clientBytes };
    }
    if (this.kinds[kind] > 0 && this.total + bytes > this.opts.instanceBytes) {
      return { ok: false, scope: 'instance', heldBytes: this.total, budgetBytes: this.opts.instanceBytes };
    }
    const charge = (delta: number) => this.add(kind, key, delta);
    charge(bytes);
    return { ok: true, reservation: new Reservation(bytes, expectedResults, charge) };
  }

  private add(kind: MemoryKind, key: string, delta: number): void {
    this.total += delta;
    this.kinds[kind] += delta;
    const mine = (this.byClient.get(key) ?? 0) + delta;
    if (mine > 0) this.byClient.set(key, mine);
    else this.byClient.delete(key);
    if (delta < 0) for (const listener of this.released) listener();
  }
}

function keyOf(kind: MemoryKind, client: string): string {
  return `${kind}\0${client}`;
}

/** One request's or run's share of the budget; released once, whichever path ends it first. */
export class Reservation {
  private charged: number;
  private results = 0;
  private released = false;

  constructor(
    private readonly base: number,
    private readonly expectedResults: number,
    private readonly charge: (delta: number) => void,
  ) {
    this.charged = base;
  }

  /** Bytes held in the budget now. */
  get bytes(): number {
    return this.released ? 0 : this.charged;
  }

  /**
   * Result bytes now held (a batch item's result, the answer on its way out): what passes
   * the expected results is added. Never refused: the results exist already; the next
   * requests are admitted against them.
   */
  hold(bytes: number): void {
    if (this.released) return;
    this.results += bytes;
    const wanted = this.base + Math.max(0, this.results - this.expectedResults);
    if (wanted > this.charged) {
      this.charge(wanted - this.charged);
      this.charged = wanted;
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.charge(-this.charged);
  }
}
