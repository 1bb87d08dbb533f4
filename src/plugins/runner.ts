import type { ValidateFunction } from 'ajv';
import fp from 'fastify-plugin';
import type { ToolPolicy } from '../config/policy.js';
import { ToolInFlight } from '../limits/in-flight.js';
import { WaitLines } from '../limits/wait-lines.js';
import type { RegisteredTool } from '../registry.js';
import { ResultCache } from '../run/result-cache.js';
import { type Hub, type RunAnswer, runTool, type ToolCall } from '../run/run-tool.js';

declare module 'fastify' {
  interface FastifyInstance {
    tools: Map<string, RegisteredTool>;
    policies: Map<string, ToolPolicy>;
    runTool: (call: ToolCall) => Promise<RunAnswer>;
  }
}

export interface RunnerOptions {
  tools: Map<string, RegisteredTool>;
  policies: Map<string, ToolPolicy>;
  validators: Map<string, ValidateFunction>;
  runtimeEnabled: boolean;
  /** Longest wait for a slot under the per-client or per-tool cap (CAP_WAIT_MS). */
  capWaitMs: number;
}

/** `app.runTool`: the one run path behind every surface (src/run/run-tool.ts). */
export default fp<RunnerOptions>(
  async (app, opts) => {
    const hub: Hub = {
      tools: opts.tools,
      policies: opts.policies,
      validators: opts.validators,
      runtimeEnabled: opts.runtimeEnabled,
      rate: app.limits.rate,
      admission: app.limits.admission,
      inFlight: new ToolInFlight(),
      waitLines: new WaitLines(),
      capWaitMs: opts.capWaitMs,
      pool: app.pool,
      metrics: app.metrics,
      cache: new ResultCache(),
    };
    app.decorate('tools', opts.tools);
    app.decorate('policies', opts.policies);
    app.decorate('runTool', (call: ToolCall) => runTool(hub, call));
  },
  { name: 'toolhub-runner', dependencies: ['toolhub-limits', 'toolhub-pool', 'toolhub-metrics'] },
);
