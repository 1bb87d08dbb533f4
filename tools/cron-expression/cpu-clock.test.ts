import { describe, expect, it } from 'vitest';
import { threadCpuClock } from './cpu-clock.js';

/** Reads the clock past its throttle, so the value is fresh. */
const read = (clock: () => number) => {
  let v = 0;
  for (let i = 0; i < 8; i++) v = clock();
  return v;
};

describe.runIf(process.platform === 'linux')("the search budget's clock", () => {
  it('counts the thread working, and the thread waiting only at its wall-time share', () => {
    const clock = threadCpuClock(0.25);
    const start = read(clock);
    // 400 ms blocked without using a core: no CPU time passes, only a quarter of the wait counts.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400);
    const waited = read(clock) - start;
    expect(waited).toBeGreaterThanOrEqual(100);
    expect(waited).toBeLessThan(300);
    // Busy for 300 ms of wall time: at least some CPU time passes (a loaded core gives less).
    const until = performance.now() + 300;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    expect(read(clock) - start).toBeGreaterThan(0);
    expect(x).toBeGreaterThan(0);
  });
});
