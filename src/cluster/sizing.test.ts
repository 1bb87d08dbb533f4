import { describe, expect, it } from 'vitest';
import { poolThreadsPerProcess, processCount } from './sizing.js';

describe('HUB_PROCESSES sizing', () => {
  it('reads a number as it is and auto as one process per two CPUs, at least one', () => {
    expect(processCount('3', 16)).toBe(3);
    expect(processCount('auto', 16)).toBe(8);
    expect(processCount('auto', 5)).toBe(2);
    expect(processCount('auto', 1)).toBe(1);
  });

  it('shares the CPUs out as worker threads, 1..4 per process', () => {
    expect(poolThreadsPerProcess(1, 2)).toBe(2);
    expect(poolThreadsPerProcess(1, 16)).toBe(4);
    expect(poolThreadsPerProcess(8, 16)).toBe(1);
    expect(poolThreadsPerProcess(4, 16)).toBe(3);
    expect(poolThreadsPerProcess(2, 16)).toBe(4);
    expect(poolThreadsPerProcess(6, 12)).toBe(1);
    expect(poolThreadsPerProcess(3, 2)).toBe(1);
  });
});
