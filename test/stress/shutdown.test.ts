import { describe, expect, it } from 'vitest';
import { policyFile } from '../helpers.js';
import { postJson, startInstance, stopInstance } from '../server-process.js';

/** SIGTERM under load: in-flight runs complete, new connections are refused, exit 0 in time. */
describe('graceful shutdown under load', () => {
  it('drains every in-flight run, refuses new connections and exits 0', async () => {
    const file = await policyFile({
      tools: {
        'token-counter': { limit: 1_000_000, maxInFlightPerClient: 64 },
        'regex-tester': { maxInFlightPerClient: 8 },
      },
    });
    const hub = await startInstance({
      POLICY_FILE: file,
      POOL_THREADS: '2',
      SHUTDOWN_TIMEOUT_MS: '10000',
      QUEUE_WAIT_MS: '10000',
    });
    try {
      // Slow runs (a catastrophic regex runs to its 1000 ms deadline) plus steady cheap load.
      const slow = Array.from({ length: 1 }, () =>
        postJson(`${hub.base}/api/tools/run/`, {
          toolId: 'regex-tester',
          input: { a: '^(a|a)+$', b: `${'a'.repeat(40)}!`, c: 'u', mode: 'test' },
        }),
      );
      const text = 'x'.repeat(200_000);
      const cheap = Array.from({ length: 12 }, () =>
        postJson(`${hub.base}/api/tools/run/`, { toolId: 'token-counter', input: { a: text } }),
      );
      // SIGTERM only once every request is in flight (answered, or holding a pool slot): one
      // still in the client's socket when the listener closes would be refused, rightly.
      let answered = 0;
      for (const p of [...slow, ...cheap])
        void p.then(
          () => answered++,
          () => answered++,
        );
      await expect
        .poll(
          async () => {
            const ready = (await (await fetch(`${hub.base}/readyz`)).json()) as { pool: { inUse: number } };
            return ready.pool.inUse + answered;
          },
          { timeout: 30_000, interval: 20 },
        )
        .toBe(slow.length + cheap.length);
      hub.proc.kill('SIGTERM');
      const answers = await Promise.allSettled([...slow, ...cheap]);
      // Every request that was in flight got a real answer, not a reset connection.
      const statuses = answers.map((a) =>
        a.status === 'fulfilled' ? a.value.status : `rejected: ${String(a.reason)}`,
      );
      expect(
        statuses.every((s) => s === 200 || s === 504 || s === 429),
        statuses.join(),
      ).toBe(true);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
      // Exit 0: drained within SHUTDOWN_TIMEOUT_MS (past it the hub exits 1).
      expect(await hub.exited).toBe(0);
      await expect(fetch(`${hub.base}/healthz`)).rejects.toThrow();
    } finally {
      await stopInstance(hub);
    }
  });
});
