/**
 * Every threshold that steers the pool, in one place (docs/architecture.md, "The pool",
 * the tuning table). The scheduler's pure parts read their numbers from here and the
 * executor (src/pool/pool.ts) has none of its own, so a test or a benchmark can change one
 * number and see every decision that depends on it change together.
 */
export interface PoolTuning {
  /** How often deadlines, take-backs, held runs and queue waits are checked: one timer for every run in flight. */
  readonly sweepMs: number;
  /** A run holding its worker longer than this lets the runs queued behind it in its batch go elsewhere. */
  readonly takeBackAfterMs: number;
  /** A run holding its worker longer than this is held: it stops counting as active. */
  readonly holdAfterMs: number;
  /**
   * A worker's first run of a tool may include lazy set-up its `prepare` does not cover
   * (tables built inside the run). Holding it at once would send the next run to another
   * worker that builds the same tables, and so on; holding a runaway late keeps good runs
   * waiting. Until a first run of the tool has succeeded, such a run is held after this...
   */
  readonly firstRunMs: number;
  /** ...and later after this many times what first runs of the tool take (at least holdAfterMs). */
  readonly firstRunFactor: number;
  /** A tool with a run past its deadline within this long is known to run away: only its held runs are lowered. */
  readonly runsAwayMs: number;
  /** A held run is lowered once it has gone this many times as long as the tool's successful runs usually take... */
  readonly lowerFactor: number;
  /** ...and at least this long: lowering a legitimate run starves it on a loaded machine. */
  readonly lowerAfterMs: number;
  /** A lowered run is charged its CPU time, but never runs longer than this many times its timeoutMs. */
  readonly loweredDeadlineFactor: number;
  /** Nice value of a lowered run's thread (Linux; elsewhere ignored). */
  readonly heldNice: number;
  /** Times a run goes back to the queue because a batch it did not cause failed; the next such failure settles it. */
  readonly maxReturns: number;
  /** Overflow workers idle this long leave. */
  readonly idleTimeoutMs: number;
  /**
   * Young generation of each worker (MB, at most a quarter of its heap). A worker keeps its
   * pages committed between runs, so after heavy runs every worker holds it: at 64 MiB, five
   * concurrent 4 MB batches of conversions left ~57 MiB more per worker resident than at
   * 16 MiB, with no slower runs (docs/operations.md, "Memory admission").
   */
  readonly youngGenerationMb: number;
  /** The mean run time a tool starts with: above maxBatchMs, so it travels alone until its runs show it fast. */
  readonly newToolMeanMs: number;
  /** A tool whose recent runs average more than this is slow: its runs go to the slow lane. */
  readonly slowMs: number;
  /** Most runs in one batch. */
  readonly maxItems: number;
  /** Sum of the tools' mean run times in one batch: how long its last run may wait behind the rest. */
  readonly maxBatchMs: number;
  /** Most input bytes in one batch, to keep its message small. */
  readonly maxBatchBytes: number;
  /** Weight of the newest run in a tool's running means (exponentially weighted). */
  readonly meanWeight: number;
}

/** The pool's tuning: the numbers the hub runs with. */
export const POOL_TUNING: PoolTuning = Object.freeze({
  sweepMs: 10,
  takeBackAfterMs: 20,
  holdAfterMs: 100,
  firstRunMs: 250,
  firstRunFactor: 2,
  runsAwayMs: 60_000,
  lowerFactor: 4,
  lowerAfterMs: 250,
  loweredDeadlineFactor: 2,
  heldNice: 10,
  maxReturns: 3,
  idleTimeoutMs: 30_000,
  youngGenerationMb: 16,
  newToolMeanMs: 50,
  slowMs: 50,
  maxItems: 32,
  maxBatchMs: 5,
  maxBatchBytes: 256 * 1024,
  meanWeight: 0.2,
});

/** src/app.ts bounds a run's whole request by it (a lowered run may run this many timeoutMs). */
export const LOWERED_DEADLINE_FACTOR = POOL_TUNING.loweredDeadlineFactor;
/** How many times a run not at fault goes back to the queue (docs/architecture.md, "Batching and take-back"). */
export const MAX_RETURNS = POOL_TUNING.maxReturns;
