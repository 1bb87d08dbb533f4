import type { ValidateFunction } from 'ajv';
import fp from 'fastify-plugin';
import { RunCache } from '../cache/run-cache.js';
import type { ToolPolicy } from '../config/policy.js';
import type { RegisteredTool } from '../registry.js';
import { RunFacade } from '../run/facade.js';

declare module 'fastify' {
  interface FastifyInstance {
    tools: Map<string, RegisteredTool>;
    policies: Map<string, ToolPolicy>;
    /** The one entry for a run behind every surface (src/run/facade.ts). */
    facade: RunFacade;
  }
}

export interface FacadeOptions {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runsEnabled: boolean;
}

/** `app.facade`: the run facade, built from the limits, the pool, the result cache and the metrics. */
export default fp<FacadeOptions>(
  async (app, opts) => {
    app.decorate('tools', opts.tools);
    app.decorate('policies', opts.policies);
    app.decorate(
      'facade',
      new RunFacade({
        tools: opts.tools,
        policies: opts.policies,
        validators: opts.validators,
        runsEnabled: opts.runsEnabled,
        limits: app.limits,
        pool: app.pool,
        metrics: app.metrics,
        cache: new RunCache(opts.tools, app.resultCache, app.metrics),
        runMemory: app.runMemory,
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
    ],
  },
);
