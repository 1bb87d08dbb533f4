import { describe, expect, it } from 'vitest';
import { chargedMs, pastDeadline } from './deadline.js';
import { holdAfter, lowerAfter, shouldLower } from './held-runs.js';
import { POOL_TUNING } from './tuning.js';

const T = POOL_TUNING;

describe('hold and lower thresholds', () => {
  it('holds a run after holdAfterMs; a first run after firstRunMs, then after firstRunFactor × usual', () => {
    expect(holdAfter({ first: false, ms: null }, T)).toBe(T.holdAfterMs);
    expect(holdAfter({ first: false, ms: 900 }, T)).toBe(T.holdAfterMs);
    expect(holdAfter({ first: true, ms: null }, T)).toBe(T.firstRunMs);
    expect(holdAfter({ first: true, ms: 400 }, T)).toBe(T.firstRunFactor * 400);
    expect(holdAfter({ first: true, ms: 10 }, T)).toBe(T.holdAfterMs);
  });

  it('lowers past the hold, past lowerAfterMs and past lowerFactor × usual, only a runaway tool', () => {
    expect(lowerAfter({ first: false, ms: null }, T)).toBe(T.lowerAfterMs);
    expect(lowerAfter({ first: false, ms: 100 }, T)).toBe(T.lowerFactor * 100);
    expect(lowerAfter({ first: true, ms: null }, { ...T, firstRunMs: 900 })).toBe(900);
    const usual = { first: false, ms: 10 };
    expect(shouldLower(usual, T.lowerAfterMs + 1, true, T)).toBe(true);
    expect(shouldLower(usual, T.lowerAfterMs, true, T)).toBe(false);
    expect(shouldLower(usual, 60_000, false, T)).toBe(false);
  });
});

describe('deadlines', () => {
  const cpu = (ms: number | null) => () => ms;

  it('stops a run never lowered at its deadline, and one whose CPU time is unknown', () => {
    const run = { timeoutMs: 1000, lowered: null };
    expect(pastDeadline({ run, ranMs: 1001, startedAt: 0, cpuNowMs: cpu(0) }, T)).toBe(true);
    const unknown = { timeoutMs: 1000, lowered: { at: 300, cpuMs: null } };
    expect(pastDeadline({ run: unknown, ranMs: 1001, startedAt: 0, cpuNowMs: cpu(0) }, T)).toBe(true);
    const lowered = { timeoutMs: 1000, lowered: { at: 300, cpuMs: 50 } };
    expect(pastDeadline({ run: lowered, ranMs: 1001, startedAt: 0, cpuNowMs: cpu(null) }, T)).toBe(true);
  });

  it('charges a lowered run its wall time until lowered, then its CPU time, within the wall bound', () => {
    expect(chargedMs(1000, 1300, 50, 450)).toBe(700);
    const run = { timeoutMs: 1000, lowered: { at: 1300, cpuMs: 50 } };
    const at = (ranMs: number, cpuNow: number) =>
      pastDeadline({ run, ranMs, startedAt: 1000, cpuNowMs: cpu(cpuNow) }, T);
    expect(at(1500, 700)).toBe(false); // charged 950
    expect(at(1500, 800)).toBe(true); // charged 1050
    expect(at(T.loweredDeadlineFactor * 1000, 60)).toBe(false);
    expect(at(T.loweredDeadlineFactor * 1000 + 1, 60)).toBe(true);
    expect(
      pastDeadline({ run, ranMs: 2500, startedAt: 1000, cpuNowMs: cpu(60) }, { loweredDeadlineFactor: 3 }),
    ).toBe(false);
  });
});
