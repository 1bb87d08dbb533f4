import fp from 'fastify-plugin';
import { RunCache } from '../cache/run-cache.js';
import { RunFacade } from '../run/facade.js';
import { compileValidators } from '../run/input.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The one entry for a run behind every surface (src/run/facade.ts). */
    facade: RunFacade;
  }
}

/** `app.facade`: the run facade, built from the limits, the pool, the result cache, the metrics and the named pipelines. */
export default fp(
  async (app) => {
    const { tools, policies } = app;
    app.decorate(
      'facade',
      new RunFacade({
        tools,
        policies,
        validators: compileValidators(tools),
        runsEnabled: app.hubConfig.runsEnabled,
        limits: app.limits,
        pool: app.pool,
        metrics: app.metrics,
        cache: new RunCache(tools, app.resultCache, app.metrics),
        runMemory: app.runMemory,
        pipelines: app.pipelines,
        pipelineTimeoutMs: app.hubConfig.env.PIPELINE_TIMEOUT_MS,
      }),
    );
  },
  {
    name: 'toolhub-facade',
    dependencies: [
      'toolhub-limits',
      'toolhub-pool',
      'toolhub-metrics',
      'toolhub-memory-admission',
      'toolhub-result-cache',
      'toolhub-pipelines',
    ],
  },
);
