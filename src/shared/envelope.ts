import type { CellMemory } from './run-cells.js';
import type { ToolInput } from './tool-def.js';

/**
 * The only things that cross the thread boundary (Piscina's own split): plain data.
 * Errors thrown in a worker lose their class when cloned, so the worker answers with
 * an envelope and one adapter in the API process maps it (src/pool/outcome.ts).
 */

/** One run of a batch. */
export interface RunItem {
  toolId: string;
  mode: string;
  input: ToolInput;
  /** The run's cell in the run cells (src/shared/run-cells.ts). */
  cell: number;
}

/**
 * What one Piscina task carries: the runs of one batch, run in order by one worker.
 * Batching amortises the cost of a thread crossing (a message and a wake-up each way)
 * over every run that waited for a worker at the same moment.
 */
export interface RunBatch {
  batch: number;
  items: RunItem[];
  resultMaxBytes: number;
  /** Warm-up: answers once the worker is up (it loads its tools on first use). */
  warmup?: true;
}

/** Per item of the batch, in order: its envelope, or null when the API thread took it back. */
export type BatchAnswer = (RunEnvelope | null)[];

export type WorkerErrorCode =
  | 'INVALID_INPUT'
  | 'UNSUPPORTED_OPTION'
  | 'BUDGET_EXCEEDED'
  | 'CONCURRENCY_LIMIT'
  | 'INTERNAL_ERROR';

/**
 * Why a run ended as it did, where the code alone does not say (docs/api.md, "Error
 * reasons"): past its memory cap, a result over RESULT_MAX_BYTES, the network refused.
 */
export const ERROR_REASONS = ['memory', 'resultSize', 'network'] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export type RunEnvelope = (
  | { ok: true /** The result, already serialised once in the worker. */; json: string; durationMs: number }
  | {
      ok: false;
      code: WorkerErrorCode;
      message: string;
      durationMs: number;
      reason?: ErrorReason;
      /** For the log only (stack of an unexpected error); never sent to clients. */
      detail?: string;
    }
) & {
  /** The worker's first run of this tool: it may include the tool's lazy set-up (tables, caches). */
  first?: true;
};

export interface PoolWorkerData {
  /** The URL of the worker's ES entry, which workers/entry.cjs imports (src/paths.ts). */
  entry: string;
  /** toolId → absolute path of its run module. */
  tools: Record<string, string>;
  cells: CellMemory;
  /** The workers of a pool group whose tools may use the network (docs/tool-packages.md, "needs"). */
  networkEnabled?: boolean;
}

/** Message of the error a worker raises when a tool reaches for the network. */
export const NETWORK_DISABLED_MESSAGE =
  "network access is disabled for this tool (networkEnabled: false): a package's tool gets it when its manifest asks for it (toolhub.needs.network) and the operator's TOOL_NETWORK names it";
