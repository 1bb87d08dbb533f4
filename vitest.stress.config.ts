import { defineConfig } from 'vitest/config';

/** `npm run test:stress`: the longer reliability cases (faults, shutdown, replicas under load). */
export default defineConfig({
  test: {
    include: ['test/stress/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Each file starts its own servers and load: one at a time on 2 cores.
    fileParallelism: false,
  },
});
