import type { Tier } from '../auth/tiers.js';
import type { HubError } from '../errors.js';
import type { RateReport } from '../limits/rate-report.js';
import type { ToolDefinition } from '../shared/tool-def.js';
import type { ResolvedInput } from './input.js';

/**
 * Where a run came in. `runtime` is the generic runtime endpoint `/api/tools/run/` (the
 * wire value predates the other surfaces and stays); `dedicated` a tool's own endpoint.
 * Declared once: the answer schema, the metrics and the docs read this list.
 */
export const SURFACES = ['runtime', 'dedicated', 'mcp', 'batch'] as const;
export type Surface = (typeof SURFACES)[number];

/** Who says they are calling (the request's `source`), declared once. */
export const SOURCES = ['web', 'api', 'mcp', 'direct_framework'] as const;
export type Source = (typeof SOURCES)[number];

/** What the run path may log: the request's logger, or any pino logger. */
export interface RunLog {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** One run, as every surface hands it to the facade. */
export interface RunCall {
  toolId: string;
  surface: Surface;
  source: Source;
  /** Maps the request onto the tool's mode and named input (differs per surface). */
  resolve: (def: ToolDefinition) => ResolvedInput;
  /** The identity limits are counted for: the API key's id, or the client address. */
  client: string;
  /** The API key's tier, when the caller gave a key that has one. */
  tier?: Tier;
  requestId: string;
  log: RunLog;
}

/** The `runtime` answer block: what every answer says about its run. */
export interface RunMeta {
  toolId: string;
  requestId: string;
  surface: Surface;
  source: Source;
  timeoutMs: number;
  /** Execution time in the worker. */
  durationMs: number;
  /** Wait for a worker. */
  queuedMs: number;
  mode?: string;
  cached?: true;
}

/**
 * What a run came to, for every surface to translate into its own protocol: the result
 * (already serialised once, in the worker) with its meta and rate report, or the error.
 * A HubError carries its `runtime` block, `rateLimit` and headers once they are known.
 */
export type RunResult =
  | { ok: true; toolId: string; resultJson: string; meta: RunMeta; rate: RateReport }
  | { ok: false; error: HubError };
