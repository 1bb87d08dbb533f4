import type { Source } from '../run-meta.js';

/** A job's states (docs/api.md, "Jobs"), declared once: the answer schema and the docs read this list. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The states a job ends in: nothing changes after them but the expiry. */
export const FINISHED: ReadonlySet<JobState> = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * What a job runs, as plain JSON (BullMQ keeps it in Redis): a generic runtime body
 * (`POST /api/jobs/` with `toolId`), a batch request's runs (with `runs`), or an MCP
 * `tools/call`'s arguments (a task, src/mcp/tasks.ts).
 */
export type JobCall =
  | { kind: 'run'; toolId: string; body: Record<string, unknown> }
  | { kind: 'runs'; runs: unknown[]; source?: Source }
  | { kind: 'mcp'; toolId: string; arguments: Record<string, unknown> };

/** Everything a job carries: its call and who it belongs to. */
export interface JobData {
  /**
   * The caller it belongs to and is counted under: `key:<id>`, or the client address with
   * keys off. A key's tier is read when the job runs (a revoked key's jobs fail).
   */
  owner: string;
  call: JobCall;
  /** Where its one webhook goes (docs/api.md, "Webhooks"). */
  callbackUrl?: string;
  /** The request that submitted it (logs). */
  requestId: string;
  /** The submitting request's trace (`traceparent`, `tracestate`) while tracing is on: the job's span continues it. */
  trace?: Record<string, string>;
}

/**
 * What a finished job answers: the status and body the synchronous call would have given
 * (a ToolRunSuccess, a batch answer, a ToolRunError), or nothing for a cancelled job.
 */
export interface JobAnswer {
  ok: boolean;
  status: number;
  body: string;
}

/** One webhook attempt as the job shows it. */
export interface WebhookAttempt {
  at: string;
  /** The receiver's HTTP status; absent when no answer came (then `error`). */
  status?: number;
  error?: string;
  durationMs: number;
}

/** The public view of a job (`GET /api/jobs/<id>`, and a task's status on MCP). */
export interface JobView {
  id: string;
  state: JobState;
  kind: 'run' | 'batch';
  /** Made by an MCP `tools/call` as a task (src/mcp/tasks.ts): its answer is the call's result. */
  task?: true;
  toolId?: string;
  runs?: number;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** When a finished job and its answer are removed. */
  expiresAt?: string;
  /** How many times a run of it started (more than 1 only when a process died holding it). */
  attempts: number;
  /** Once finished (not cancelled): the synchronous answer's status and body. */
  answer?: { status: number; body: unknown };
  webhook?: {
    url: string;
    state: 'pending' | 'delivered' | 'failed';
    attempts: WebhookAttempt[];
  };
}
