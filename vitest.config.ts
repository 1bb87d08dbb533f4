import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tools/**/*.test.ts', 'test/**/*.test.ts'],
    // The long reliability cases run with `npm run test:stress` (vitest.stress.config.ts).
    exclude: ['test/stress/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests that start servers and worker pools share 2 cores: keep file parallelism modest.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
