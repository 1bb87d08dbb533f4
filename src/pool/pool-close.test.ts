import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { Piscina } from 'piscina';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { projectRoot, workerEntry, workerFile } from '../paths.js';
import { EVENTS } from '../shared/events.js';
import type { RunOutcome } from './outcome.js';
import { type PoolOptions, ToolPool } from './pool.js';
import { MAX_RETURNS } from './tuning.js';

const fixture = (id: string) => join(projectRoot, 'test', 'fixtures', 'tools', id, 'run.ts');

const OPTIONS: PoolOptions = {
  threads: 1,
  overflow: 1,
  maxQueue: 64,
  queueWaitMs: 30_000,
  heapMb: 128,
  resultMaxBytes: 1 << 20,
  tools: { 'fx-sleep': fixture('fx-sleep'), 'fx-echo': fixture('fx-echo') },
};

/**
 * Piscina.run calls past this bound mean the pool is sending the same runs again and again
 * (the bug of issue 19: a closing Piscina rejects at once, and the runs were queued again).
 * The spy then answers with a promise that never settles, which breaks that microtask
 * loop, so that a broken pool fails this test instead of hanging the test worker.
 */
const SPIN_BOUND = 500;

let pool: ToolPool | undefined;
let spun = false;

function watchForSpin(): void {
  const run = Piscina.prototype.run;
  let calls = 0;
  vi.spyOn(Piscina.prototype, 'run').mockImplementation(function (this: Piscina, ...args) {
    if (++calls > SPIN_BOUND) {
      spun = true;
      return new Promise(() => {});
    }
    return run.apply(this, args);
  });
}

beforeEach(watchForSpin);
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  vi.restoreAllMocks();
  spun = false;
});

const sleepRun = (ms: number) => ({
  toolId: 'fx-sleep',
  mode: 'default',
  input: { text: String(ms) },
  timeoutMs: 10_000,
  bytes: 4,
});

function expectShutdown(outcome: RunOutcome): void {
  expect(outcome).toMatchObject({ ok: false, code: 'CONCURRENCY_LIMIT', status: 503 });
  expect(!outcome.ok && outcome.message).toContain('shutting down');
}

describe('closing the pool (docs/architecture.md, "Batching and take-back")', () => {
  it('settles runs still queued when close() starts, with the shutdown refusal, and does not spin', async () => {
    pool = new ToolPool(OPTIONS);
    await pool.warmUp();
    // A new tool travels alone on the one active worker of the slow lane: one runs, five wait.
    const runs = Array.from({ length: 6 }, () => pool!.run(sleepRun(300)));
    await expect.poll(() => pool!.stats().inUse).toBe(6);
    await expect.poll(() => pool!.stats().queueSize).toBe(5);
    await pool.close();
    expect(spun, 'the closing pool sent the same runs again and again').toBe(false);
    const outcomes = await Promise.all(runs);
    // The running one finishes (close() waits for batches on workers); the rest are refused.
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => !o.ok)) expectShutdown(outcome);
    expect(pool.stats().inUse).toBe(0);
  });

  it('settles every run when close() comes before the workers are up, and does not spin', async () => {
    pool = new ToolPool(OPTIONS);
    const warm = pool.warmUp();
    warm.catch(() => {}); // cut short by close(): not a failure
    const runs = Array.from({ length: 8 }, (_, i) =>
      pool!.run(i % 2 ? sleepRun(50) : { ...sleepRun(0), toolId: 'fx-echo' }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    await pool.close();
    expect(spun, 'the closing pool sent the same runs again and again').toBe(false);
    for (const outcome of await Promise.all(runs)) expectShutdown(outcome);
    expect(pool.stats().inUse).toBe(0);
  });

  it('gives a run the closing pool stops on its worker the shutdown refusal, not INTERNAL_ERROR', async () => {
    // Not warmed up: close() then terminates the workers at once, the running run with them.
    pool = new ToolPool(OPTIONS);
    const running = pool.run(sleepRun(5000));
    // Held (past the first-run threshold) means it is running on a worker.
    await expect.poll(() => pool!.stats().held, { timeout: 20_000 }).toBe(1);
    await pool.close();
    expectShutdown(await running);
  });

  it('refuses a run that arrives after close() started', async () => {
    pool = new ToolPool(OPTIONS);
    await pool.warmUp();
    const closed = pool.close();
    const refused = pool.run(sleepRun(0));
    await closed;
    expect(spun, 'the closing pool sent the same run again and again').toBe(false);
    expectShutdown(await refused);
  });
});

describe('a run whose batches keep failing before it starts', () => {
  it(`goes back to the queue at most MAX_RETURNS (${MAX_RETURNS}) times, then fails`, async () => {
    // A tool whose module runs its worker out of heap while loading: the run is never
    // claimed (its deadline has not started), so it is no batch's culprit.
    const dir = await mkdtemp(join(tmpdir(), 'toolhub-pool-'));
    try {
      const file = join(dir, 'run.mjs');
      await writeFile(
        file,
        'const a = [];\nfor (;;) a.push(new Array(1e5).fill(Math.random()));\nexport default () => ({});\n',
      );
      pool = new ToolPool({ ...OPTIONS, heapMb: 32, tools: { 'fx-heavy-load': file } });
      let restarts = 0;
      const quiet = EVENTS.workerRestart.subscribe(pool, () => restarts++);
      onTestFinished(quiet);
      await pool.warmUp();
      const outcome = await pool.run({ ...sleepRun(0), toolId: 'fx-heavy-load' });
      expect(outcome).toMatchObject({ ok: false, code: 'BUDGET_EXCEEDED' });
      expect(!outcome.ok && outcome.detail).toContain(`in ${MAX_RETURNS + 1} tries`);
      expect(restarts).toBe(MAX_RETURNS + 1);
      expect(pool.stats().inUse).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The file Piscina loads in each worker (src/paths.ts, workers/entry.cjs). Piscina require()s
 * it, and on Node 20 a worker terminated while require() instantiates an ES module aborts the
 * whole process (a pool closed right after it starts can do that). The race is a window of
 * microseconds that cannot be hit on demand: what is checked is that no ES module is on that
 * path, and that pools closed while their workers start close cleanly.
 */
describe("the pool's worker file", () => {
  it('is CommonJS, requires only a built-in, and imports the ES entry', () => {
    expect(extname(workerFile)).toBe('.cjs');
    const source = readFileSync(workerFile, 'utf8');
    expect([...source.matchAll(/require\('([^']+)'\)/g)].map((m) => m[1])).toEqual(['node:worker_threads']);
    expect(source).toContain('import(workerData.entry)');
    expect(workerEntry).toMatch(/^file:.*\/workers\/(source-worker\.mjs|tool-worker\.js)$/);
  });

  it('lets pools close while their workers are still starting, and runs through it', async () => {
    for (let i = 0; i < 8; i++) {
      const starting = new ToolPool(OPTIONS);
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      await starting.close();
    }
    pool = new ToolPool(OPTIONS);
    const outcome = await pool.run({
      toolId: 'fx-echo',
      mode: 'upper',
      input: { text: 'hi' },
      timeoutMs: 10_000,
      bytes: 2,
    });
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
  });
});
