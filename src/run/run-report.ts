import type { ToolPolicy } from '../config/policy.js';
import { HubError } from '../errors.js';
import type { RateReport } from '../limits/rate-report.js';
import type { RunRecord } from '../metrics.js';
import type { RunOutcome } from '../pool/outcome.js';
import type { RunMeta } from '../run-meta.js';
import type { RunCall } from './run-types.js';

/** The run for the metrics, written out (a spread of labels is a slow generic copy per run). */
export function runRecord(
  call: RunCall,
  tool: string,
  outcome: string,
  durationMs?: number,
  queuedMs?: number,
): RunRecord {
  return {
    tool,
    surface: call.surface,
    source: call.source,
    outcome,
    tier: call.tier?.name ?? 'none',
    durationMs,
    queuedMs,
  };
}

/** A failed run in the request's log: the worker's detail, and a deadline passed. */
export function logFailure(
  call: RunCall,
  outcome: Extract<RunOutcome, { ok: false }>,
  policy: ToolPolicy,
): void {
  if (outcome.detail) call.log.error({ toolId: call.toolId, detail: outcome.detail }, 'tool run failed');
  if (outcome.code === 'TIMEOUT') {
    call.log.warn(
      { toolId: call.toolId, client: call.client, timeoutMs: policy.timeoutMs },
      'run passed its deadline; its worker was terminated',
    );
  }
}

/** A failed run's outcome → the HubError its answer is, with the run's meta and rate report. */
export function toRunError(
  outcome: Extract<RunOutcome, { ok: false }>,
  meta: RunMeta,
  rate: RateReport,
): HubError {
  const headers: Record<string, string | number> = { ...rate.headers };
  if (outcome.code === 'CONCURRENCY_LIMIT') headers['Retry-After'] = 1;
  return new HubError(outcome.code, outcome.message, {
    ...(outcome.status ? { status: outcome.status } : {}),
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    headers,
    runtime: meta,
    rateLimit: rate.info,
  });
}

/** Milliseconds to the microsecond, as the answer's `runtime` block gives them. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
