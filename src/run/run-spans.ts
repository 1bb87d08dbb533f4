import type { RunCache } from '../cache/run-cache.js';
import type { Check } from '../limits/check.js';
import type { RunOutcome } from '../pool/outcome.js';
import type { PoolRun } from '../pool/pool.js';
import { failSpan, inSpan, recordSpan } from '../telemetry/spans.js';
import type { RunCall, RunResult } from './run-types.js';

/**
 * A run's spans while tracing is on (docs/operations.md, "Traces"); the facade calls these
 * only then. `toolhub.run` holds the cache lookup, the admission (with the wait for a
 * turn) and the pool, whose queue and worker run are recorded from the pool's own readings.
 */
export function traceRun(
  call: RunCall,
  toolId: string,
  mode: string | undefined,
  fn: () => Promise<RunResult>,
): Promise<RunResult> {
  const attributes = {
    'toolhub.tool': toolId,
    'toolhub.surface': call.surface,
    'toolhub.source': call.source,
    'toolhub.tier': call.tier?.name ?? 'none',
    ...(mode ? { 'toolhub.mode': mode } : {}),
  };
  return inSpan(`toolhub.run ${toolId}`, attributes, async (span) => {
    const result = await fn();
    if (result.ok) {
      span?.setAttribute('toolhub.outcome', 'ok');
      if (result.meta.cached) span?.setAttribute('toolhub.cached', true);
    } else {
      span?.setAttribute('toolhub.outcome', result.error.code);
      failSpan(span, `${result.error.code}: ${result.error.message.slice(0, 200)}`);
    }
    return result;
  });
}

export function traceLookup(
  toolId: string,
  fn: () => ReturnType<RunCache['lookup']>,
): ReturnType<RunCache['lookup']> {
  return inSpan('toolhub.cache.lookup', { 'toolhub.tool': toolId }, async (span) => {
    const found = await fn();
    span?.setAttribute('toolhub.cache.hit', found.hit !== undefined);
    return found;
  });
}

/** The admission: which store decided, whether it admitted, and what refused. */
export function traceCheck(fn: () => Promise<Check>): Promise<Check> {
  return inSpan('toolhub.admission', {}, async (span) => {
    const check = await fn();
    if (check.ok) {
      span?.setAttribute('toolhub.limits.decision', check.lease ? 'admitted' : 'counted');
      if (check.lease) span?.setAttribute('toolhub.limits.store', check.lease.store);
    } else {
      span?.setAttributes({
        'toolhub.limits.decision': 'refused',
        'toolhub.limits.refusal': check.refusal.code,
        'toolhub.limits.scope': check.refusal.scope,
      });
    }
    return check;
  });
}

/**
 * The pool: `toolhub.pool.queue` (until a worker started the run) and `toolhub.worker.run`
 * (the worker's own measure of it; a TIMEOUT or a failure is its status). The worker thread
 * makes no span itself: it has no exporter, and only plain data crosses to it (its start
 * stamp and its duration come back with the answer).
 */
export function tracePool(
  run: PoolRun,
  pool: { run(call: PoolRun): Promise<RunOutcome> },
): Promise<RunOutcome> {
  return inSpan(`toolhub.pool ${run.toolId}`, { 'toolhub.tool': run.toolId }, async (span) => {
    const start = performance.timeOrigin + performance.now();
    const outcome = await pool.run(run);
    const started = start + outcome.queuedMs;
    recordSpan('toolhub.pool.queue', start, started, {});
    const attributes = { 'toolhub.tool': run.toolId, 'toolhub.timeout_ms': run.timeoutMs };
    const error = outcome.ok ? undefined : `${outcome.code}: ${outcome.message.slice(0, 200)}`;
    recordSpan('toolhub.worker.run', started, started + outcome.durationMs, attributes, error);
    if (error) failSpan(span, error);
    return outcome;
  });
}
