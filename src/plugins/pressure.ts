import { type IntervalHistogram, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import fp from 'fastify-plugin';
import { HubError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** True while the instance sheds load (docs/operations.md, "Load shedding"). */
    isUnderPressure: () => boolean;
  }
}

/** Observability stays up under pressure: these answer even while runs are shed. */
const EXEMPT = /^\/(healthz|readyz|metrics)\/?(\?|$)/;
const SAMPLE_MS = 250;
const RESOLUTION_MS = 10;

type PressureKind = 'eventLoopDelay' | 'eventLoopUtilization' | 'heapUsedBytes' | 'rssBytes';

/**
 * Load shedding: while the event loop lags, the API thread is saturated or memory is high,
 * requests get 503 CONCURRENCY_LIMIT with Retry-After at once instead of slowing everyone.
 * Written here rather than with @fastify/under-pressure, whose sampling timer calls
 * process.memoryUsage(): that opens /proc/self/stat, throws EMFILE when descriptors run
 * out, and the uncaught throw ended the process in a connection flood. Here the heap comes
 * from V8 (no descriptor) and a failed RSS read keeps the last value.
 */
export default fp(
  async (app) => {
    const { env } = app.hubConfig;
    const heapLimit =
      env.PRESSURE_MAX_HEAP_USED_BYTES || Math.floor(getHeapStatistics().heap_size_limit * 0.9);
    const delay: IntervalHistogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    let elu = performance.eventLoopUtilization();
    let rss = 0;
    let pressure: PressureKind | null = null;

    const sample = () => {
      const lag = Math.max(0, delay.mean / 1e6 - RESOLUTION_MS);
      delay.reset();
      const now = performance.eventLoopUtilization();
      const busy = performance.eventLoopUtilization(now, elu).utilization;
      elu = now;
      if (env.PRESSURE_MAX_RSS_BYTES > 0) rss = readRss(rss);
      pressure =
        env.PRESSURE_MAX_EVENT_LOOP_DELAY_MS > 0 &&
        (Number.isNaN(lag) || lag > env.PRESSURE_MAX_EVENT_LOOP_DELAY_MS)
          ? 'eventLoopDelay'
          : env.PRESSURE_MAX_EVENT_LOOP_UTILIZATION > 0 && busy > env.PRESSURE_MAX_EVENT_LOOP_UTILIZATION
            ? 'eventLoopUtilization'
            : getHeapStatistics().used_heap_size > heapLimit
              ? 'heapUsedBytes'
              : env.PRESSURE_MAX_RSS_BYTES > 0 && rss > env.PRESSURE_MAX_RSS_BYTES
                ? 'rssBytes'
                : null;
    };
    // Sampling starts at ready, not here: the boot's own synchronous work (compiling schemas,
    // loading modules: seconds on a loaded machine) is not lag a client causes, and counted
    // it shed the first requests of a hub that had just said it was ready.
    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', (done) => {
      delay.enable();
      elu = performance.eventLoopUtilization();
      timer = setInterval(sample, SAMPLE_MS);
      timer.unref();
      done();
    });

    app.decorate('isUnderPressure', () => pressure !== null);
    app.addHook('onRequest', (request, _reply, done) => {
      if (pressure === null || EXEMPT.test(request.url)) return done();
      done(
        new HubError('CONCURRENCY_LIMIT', `the instance is under pressure (${pressure}); retry shortly`, {
          status: 503,
          headers: { 'Retry-After': 2 },
        }),
      );
    });
    app.addHook('onClose', (_app, done) => {
      clearInterval(timer);
      delay.disable();
      done();
    });
  },
  { name: 'toolhub-pressure', dependencies: ['toolhub-errors'] },
);

/** Resident set size, or the last value when it cannot be read (no descriptor left). */
function readRss(last: number): number {
  try {
    return process.memoryUsage.rss();
  } catch {
    return last;
  }
}
