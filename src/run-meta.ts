/**
 * What every answer says about its run, declared below the error table (src/errors.ts: a
 * HubError carries the `runtime` block) and the run facade (src/run/run-types.ts), which
 * both read it: a leaf, it imports nothing.
 */

/**
 * Where a run came in. `runtime` is the generic runtime endpoint `/api/tools/run/` (the
 * wire value predates the other surfaces and stays); `dedicated` a tool's own endpoint.
 * Declared once: the answer schema, the metrics and the docs read this list.
 */
export const SURFACES = ['runtime', 'dedicated', 'mcp', 'batch', 'job'] as const;
export type Surface = (typeof SURFACES)[number];

/** Who says they are calling (the request's `source`), declared once. */
export const SOURCES = ['web', 'api', 'mcp', 'direct_framework'] as const;
export type Source = (typeof SOURCES)[number];

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
