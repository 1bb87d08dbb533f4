import { describe, expect, it } from 'vitest';
import { HubError } from '../errors.js';
import { RunMemory } from '../run/run-memory.js';
import { budgetFromEnv, declaredBodyBytes, MemoryBudget, RUN_EXPANSION } from './memory-budget.js';

const MB = 1_000_000;

/** The memory budget (docs/operations.md, "Memory admission") without a server. */
describe('memory budget', () => {
  it('admits up to the client share, then refuses that client (429 scope) while others still fit', () => {
    const budget = new MemoryBudget({ instanceBytes: 100, clientBytes: 50 });
    const a1 = budget.admit('request', 'a', 30);
    expect(a1.ok).toBe(true);
    expect(budget.admit('request', 'a', 30)).toEqual({
      ok: false,
      scope: 'client',
      heldBytes: 30,
      budgetBytes: 50,
    });
    expect(budget.admit('request', 'b', 30).ok).toBe(true);
    expect(budget.held()).toBe(60);
    expect(budget.heldBy('request', 'a')).toBe(30);
  });

  it('refuses past the instance budget (503 scope) whatever the client', () => {
    const budget = new MemoryBudget({ instanceBytes: 100, clientBytes: 60 });
    for (const client of ['a', 'b', 'c']) expect(budget.admit('request', client, 30).ok).toBe(true);
    expect(budget.admit('request', 'd', 30)).toEqual({
      ok: false,
      scope: 'instance',
      heldBytes: 90,
      budgetBytes: 100,
    });
  });

  it('admits a reservation larger than any budget when nothing else of its kind is held', () => {
    const budget = new MemoryBudget({ instanceBytes: 100, clientBytes: 50 });
    const big = budget.admit('request', 'a', 500);
    expect(big.ok).toBe(true);
    expect(budget.admit('request', 'b', 1).ok).toBe(false);
    // The runs' own count is apart: the first run goes even while requests fill the budget.
    const run = budget.admit('run', 'a', 500);
    expect(run.ok).toBe(true);
    expect(budget.admit('run', 'b', 1)).toMatchObject({ ok: false, scope: 'instance' });
    if (big.ok) big.reservation.release();
    if (run.ok) run.reservation.release();
    expect(budget.held()).toBe(0);
    expect(budget.holders).toBe(0);
  });

  it('keeps a client share per kind: its requests never keep its runs from starting', () => {
    const budget = new MemoryBudget({ instanceBytes: 1000, clientBytes: 50 });
    expect(budget.admit('request', 'a', 50).ok).toBe(true);
    expect(budget.admit('run', 'a', 40).ok).toBe(true);
    expect(budget.admit('run', 'a', 40)).toMatchObject({ ok: false, scope: 'client' });
  });

  it('adds results past the expected ones as they are held, and releases everything once', () => {
    const budget = new MemoryBudget({ instanceBytes: 1000, clientBytes: 1000 });
    const admitted = budget.admit('request', 'a', 60, 20);
    if (!admitted.ok) throw new Error('not admitted');
    const r = admitted.reservation;
    r.hold(15);
    expect(r.bytes).toBe(60);
    r.hold(15); // 30 held, 20 expected: 10 more
    expect(r.bytes).toBe(70);
    expect(budget.held()).toBe(70);
    r.release();
    r.release();
    r.hold(100);
    expect(r.bytes).toBe(0);
    expect(budget.held()).toBe(0);
    expect(budget.holders).toBe(0);
  });

  it('tells listeners when memory is given back', () => {
    const budget = new MemoryBudget({ instanceBytes: 100, clientBytes: 100 });
    let calls = 0;
    budget.whenReleased(() => calls++);
    const a = budget.admit('run', 'a', 10);
    expect(calls).toBe(0);
    if (a.ok) a.reservation.release();
    expect(calls).toBe(1);
  });

  it('derives the budgets from the environment', () => {
    const env = { MEMORY_BUDGET_BYTES: 0, MEMORY_CLIENT_SHARE: 0.5, PRESSURE_MAX_RSS_BYTES: 900 * MB };
    expect(budgetFromEnv(env, 170 * MB)).toEqual({ instanceBytes: 640 * MB, clientBytes: 320 * MB });
    // A process already near its bound at rest still gets a tenth of it.
    expect(budgetFromEnv(env, 850 * MB).instanceBytes).toBe(90 * MB);
    expect(budgetFromEnv({ ...env, MEMORY_BUDGET_BYTES: 200 * MB }, 170 * MB)).toEqual({
      instanceBytes: 200 * MB,
      clientBytes: 100 * MB,
    });
    expect(budgetFromEnv({ ...env, PRESSURE_MAX_RSS_BYTES: 0 }, 170 * MB).instanceBytes).toBe(0);
  });

  it('reads the body a request will bring from its headers', () => {
    expect(declaredBodyBytes({ 'content-length': '1000' }, 4096)).toBe(1000);
    expect(declaredBodyBytes({ 'content-length': '0' }, 4096)).toBe(0);
    // Over the cap: refused with 413 before it is read, so it reserves nothing.
    expect(declaredBodyBytes({ 'content-length': '5000' }, 4096)).toBe(0);
    expect(declaredBodyBytes({ 'content-length': 'x' }, 4096)).toBe(0);
    expect(declaredBodyBytes({ 'transfer-encoding': 'chunked' }, 4096)).toBe(4096);
    expect(declaredBodyBytes({}, 4096)).toBe(0);
  });
});

describe('run memory', () => {
  it('lets a run that does not fit wait until memory is given back', async () => {
    const budget = new MemoryBudget({ instanceBytes: 100 * RUN_EXPANSION, clientBytes: 100 * RUN_EXPANSION });
    const runs = new RunMemory(budget, 60_000);
    const first = runs.take('a', 80, {});
    if (first instanceof Promise) throw new Error('the first run should fit at once');
    const second = runs.take('b', 80, {});
    expect(second).toBeInstanceOf(Promise);
    first.release();
    const got = await second;
    expect(got.bytes).toBe(80 * RUN_EXPANSION);
    got.release();
    expect(budget.held()).toBe(0);
  });

  it('refuses a run that waited CAP_WAIT_MS: 429 for the client share, 503 for the instance', async () => {
    const budget = new MemoryBudget({ instanceBytes: 100 * RUN_EXPANSION, clientBytes: 60 * RUN_EXPANSION });
    const runs = new RunMemory(budget, 0);
    const held = runs.take('a', 50, {});
    const client = await Promise.resolve(runs.take('a', 50, { 'X-RateLimit-Limit': 5 })).catch((e) => e);
    expect(client).toBeInstanceOf(HubError);
    expect(client).toMatchObject({ code: 'CONCURRENCY_LIMIT', status: 429 });
    expect(client.headers).toEqual({ 'X-RateLimit-Limit': 5, 'Retry-After': 1 });
    const other = runs.take('b', 40, {});
    const instance = await Promise.resolve(runs.take('c', 50, {})).catch((e) => e);
    expect(instance).toMatchObject({ code: 'CONCURRENCY_LIMIT', status: 503, headers: { 'Retry-After': 2 } });
    for (const r of [held, other]) if (!(r instanceof Promise)) r.release();
    expect(budget.held()).toBe(0);
  });
});
