import type { ToolInput } from './tool-def.js';

/**
 * The only things that cross the thread boundary (Piscina's own split): plain data.
 * Errors thrown in a worker lose their class when cloned, so the worker answers with
 * an envelope and one adapter in the API process maps it (src/pool/outcome.ts).
 */
export interface RunTask {
  toolId: string;
  mode: string;
  input: ToolInput;
  /** Index in the shared start-clock array: the worker stamps it when the run starts. */
  slot: number;
  resultMaxBytes: number;
  /** Boot-time warm-up: answers once the worker has loaded every tool. */
  warmup?: true;
}

export type WorkerErrorCode = 'INVALID_INPUT' | 'UNSUPPORTED_OPTION' | 'BUDGET_EXCEEDED' | 'INTERNAL_ERROR';

export type RunEnvelope =
  | { ok: true /** The result, already serialised once in the worker. */; json: string; durationMs: number }
  | {
      ok: false;
      code: WorkerErrorCode;
      message: string;
      durationMs: number;
      /** For the log only (stack of an unexpected error); never sent to clients. */
      detail?: string;
    };

export interface PoolWorkerData {
  /** toolId → absolute path of its run module. */
  tools: Record<string, string>;
  /** BigInt64Array over this buffer: per slot, Date.now() when the run started (0: not yet). */
  clock: SharedArrayBuffer;
}

/** Message of the error a worker raises when a tool reaches for the network. */
export const NETWORK_DISABLED_MESSAGE = 'network access is disabled for tools (networkEnabled: false)';
