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
export const SURFACES = ['runtime', 'dedicated', 'mcp', 'batch', 'job', 'pipeline'] as const;
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
  /** A pipeline's answer: its steps' runs (docs/api.md, "Pipelines"). */
  pipeline?: PipelineMeta;
}

/** What a pipeline's answer says of its steps. */
export interface PipelineMeta {
  /** The steps started: each a run of its tool, counted under that tool's limits. */
  runs: number;
  /** Wall time of the whole pipeline, ms. */
  wallMs: number;
  steps: PipelineStepMeta[];
  /** On a failure: the step that ended the pipeline. */
  failedStep?: { index: number; toolId: string };
}

export interface PipelineStepMeta {
  toolId: string;
  mode?: string;
  durationMs: number;
  queuedMs: number;
  cached?: true;
  /** On a failure: the results of the steps before the failing one. */
  result?: unknown;
  /** The failing step's error code. */
  errorCode?: string;
}
