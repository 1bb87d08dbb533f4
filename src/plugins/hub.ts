import type { ValidateFunction } from 'ajv';
import fp from 'fastify-plugin';
import { RunCache } from '../cache/run-cache.js';
import type { ToolPolicy } from '../config/policy.js';
import type { RegisteredTool } from '../registry.js';
import { Hub } from '../run/hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    tools: Map<string, RegisteredTool>;
    policies: Map<string, ToolPolicy>;
    /** The one entry for a run behind every surface (src/run/hub.ts). */
    hub: Hub;
  }
}

export interface RunnerOptions {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runtimeEnabled: boolean;
}

/** `app.hub`: the run facade, built from the limits, the pool, the result cache and the metrics. */
export default fp<RunnerOptions>(
  async (app, opts) => {
    app.decorate('tools', opts.tools);
    app.decorate('policies', opts.policies);
    app.decorate(
      'hub',
      new Hub({
        tools: opts.tools,
        policies: opts.policies,
        validators: opts.validators,
        runtimeEnabled: opts.runtimeEnabled,
        limits: app.limits,
        pool: app.pool,
        metrics: app.metrics,
        cache: new RunCache(opts.tools, app.resultCache, app.metrics),
        runMemory: app.runMemory,
      }),
    );
  },
  {
    name: 'toolhub-hub',
    dependencies: [
      'toolhub-limits',
      'toolhub-pool',
      'toolhub-metrics',
      'toolhub-memory-admission',
      'toolhub-result-cache',
    ],
  },
);
