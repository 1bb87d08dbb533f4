import { setTimeout as sleep } from 'node:timers/promises';
import fp from 'fastify-plugin';
import { PoolGroups, poolGroups } from '../pool/groups.js';
import { EVENTS } from '../shared/events.js';

declare module 'fastify' {
  interface FastifyInstance {
    pool: PoolGroups;
  }
}

const WARM_UP_WAIT_MS = 5000;

function delay(ms: number): Promise<void> {
  return sleep(ms, undefined, { ref: false });
}

/** The Piscina pools (one per pool group); closed (after in-flight runs finish) when the app closes. */
export default fp(
  async (app) => {
    const { env } = app.hubConfig;
    // Tools with another memory cap or the network run in pool groups of their own (their policy says which).
    const resources = new Map(
      [...app.policies].map(([id, p]) => [id, { memoryMb: p.memoryMb, network: p.networkEnabled }]),
    );
    const runPaths = Object.fromEntries([...app.tools].map(([id, t]) => [id, t.runPath]));
    const pool = new PoolGroups(
      {
        threads: env.POOL_THREADS,
        overflow: env.POOL_OVERFLOW_THREADS,
        maxQueue: env.POOL_MAX_QUEUE,
        queueWaitMs: env.QUEUE_WAIT_MS,
        resultMaxBytes: env.RESULT_MAX_BYTES,
      },
      poolGroups(runPaths, resources, env.WORKER_HEAP_MB),
    );
    const quiet = [
      EVENTS.workerError.subscribe(pool, ({ err }) => app.log.error({ err }, 'worker thread error')),
      EVENTS.workerRestart.subscribe(pool, () =>
        app.log.warn('worker thread replaced: a run passed its deadline or heap limit, or its worker died'),
      ),
    ];
    app.addHook('onClose', async () => {
      for (const unsubscribe of quiet) unsubscribe();
    });
    app.decorate('pool', pool);
    // The workers start now and boot on the other cores while this thread builds the rest of
    // the app; the boot waits for them at the end (onReady), but not past WARM_UP_WAIT_MS: on
    // a starved machine (seen in CI with two suites sharing 2 cores) a worker's start can be
    // slow, and a boot that fails there helps nobody. The app then serves anyway; runs that
    // arrive first wait in the queue (bounded by QUEUE_WAIT_MS). A warm-up that fails in time
    // fails the boot (a worker that cannot start).
    const warm = pool.warmUp();
    warm.catch(() => {}); // awaited (and reported) below
    app.addHook('onReady', async () => {
      const late = await Promise.race([warm.then(() => false), delay(WARM_UP_WAIT_MS).then(() => true)]);
      if (!late) return;
      app.log.warn(
        `workers still loading after ${WARM_UP_WAIT_MS} ms; serving, runs queue until they are up`,
      );
      warm.catch((err: unknown) => {
        if (!pool.closed) app.log.error({ err }, 'worker warm-up failed');
      });
    });
    app.addHook('onClose', async () => pool.close());
  },
  { name: 'toolhub-pool' },
);
