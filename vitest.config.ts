import { defineConfig } from 'vitest/config';

/**
 * Two projects (CONTRIBUTING.md, "Where a test goes"):
 *   unit         the tests beside the code: one module, in-process, a Redis at most;
 *                `npm run check` runs them before each commit
 *   integration  test/: the app built and driven over HTTP or inject, processes, browsers,
 *                private Redis deployments, the published clients
 * `npm test` (vitest run) runs both. The long reliability cases are a third run of their
 * own: `npm run test:stress` (vitest.stress.config.ts).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests that start servers and worker pools share 2 cores: keep file parallelism modest.
    maxWorkers: 2,
    fileParallelism: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tools/**/*.test.ts', 'workers/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/stress/**', 'node_modules/**'],
        },
      },
    ],
  },
});
