import type { Tier } from '../auth/tiers.js';
import { errorJson, HubError } from '../errors.js';
import { itemJson, successJson } from '../run/answer-json.js';
import { withSource } from '../run/batch-input.js';
import type { RunFacade } from '../run/facade.js';
import { fromArguments, fromGeneric } from '../run/input.js';
import type { RunLog, RunResult } from '../run/run-types.js';
import { readRuntimeCall } from '../run/runtime-input.js';
import type { Source } from '../run-meta.js';
import type { JobAnswer, JobCall } from './job-types.js';

/** Who a job runs as: the owner's identity and tier, as the limits count them. */
export interface JobCaller {
  client: string;
  tier?: Tier;
}

export interface JobRunContext {
  facade: RunFacade;
  caller: JobCaller;
  jobId: string;
  log: RunLog;
  /** A refusal that names a wait (Retry-After) is waited out until this time (ms since the epoch). */
  waitUntil: number;
  /** How many runs of a batch job go at once: the caller's caps still bound them. */
  batchParallel: number;
  /** Stops the batch's waiting early (the job was cancelled, the instance is closing). */
  stopped: () => boolean;
  /** An MCP task's answer body: the `tools/call` result the call alone would have given (src/mcp/call-result.ts). */
  callResult: (result: RunResult) => string;
}

/** A single run refused for now: the worker puts the job back for this long (src/jobs/job-worker.ts). */
export interface JobWait {
  waitMs: number;
  refusal: JobAnswer;
}

/** Refusals a wait cures: a spent rate limit, budget or quota, a cap or a full instance. */
const WAITABLE = new Set(['RATE_LIMITED', 'BUDGET_EXCEEDED', 'CONCURRENCY_LIMIT']);

/**
 * The wait a refusal names, or null when waiting does not help (or the job may not wait
 * that long): a job runs under the caller's limits and waits its turn instead of failing.
 */
export function waitFor(result: RunResult, now: number, waitUntil: number): number | null {
  if (result.ok || !WAITABLE.has(result.error.code)) return null;
  const after = Number(result.error.headers['Retry-After']);
  // A heap or result-size refusal (BUDGET_EXCEEDED with a reason) is the run's own: no wait cures it.
  if (!Number.isFinite(after) || after <= 0 || result.error.reason) return null;
  const waitMs = Math.ceil(after * 1000);
  return now + waitMs <= waitUntil ? waitMs : null;
}

/** Runs one job's call through the facade: its answer, or a wait for a single run refused for now. */
export async function runJob(call: JobCall, ctx: JobRunContext): Promise<JobAnswer | JobWait> {
  if (call.kind === 'runs') return runBatch(call.runs, call.source, ctx);
  const result = await runOne(call, ctx, ctx.jobId);
  const refusal =
    call.kind === 'mcp'
      ? { ok: result.ok, status: result.ok ? 200 : result.error.status, body: ctx.callResult(result) }
      : answerOf(result);
  const waitMs = waitFor(result, Date.now(), ctx.waitUntil);
  return waitMs === null ? refusal : { waitMs, refusal };
}

function runOne(call: Exclude<JobCall, { kind: 'runs' }>, ctx: JobRunContext, requestId: string) {
  const who = { client: ctx.caller.client, ...(ctx.caller.tier ? { tier: ctx.caller.tier } : {}) };
  if (call.kind === 'mcp') {
    const args = call.arguments;
    return ctx.facade.run({
      toolId: call.toolId,
      surface: 'mcp',
      source: 'mcp',
      resolve: (def) => fromArguments(def, args, def.modeField ?? 'mode'),
      ...who,
      requestId,
      log: ctx.log,
    });
  }
  return runGeneric(call.body, ctx, requestId);
}

async function runGeneric(body: unknown, ctx: JobRunContext, requestId: string): Promise<RunResult> {
  try {
    const generic = readRuntimeCall(body, 'body');
    return await ctx.facade.run({
      toolId: generic.toolId,
      surface: 'job',
      source: generic.source,
      resolve: (def) => fromGeneric(def, generic.generic),
      client: ctx.caller.client,
      ...(ctx.caller.tier ? { tier: ctx.caller.tier } : {}),
      requestId,
      log: ctx.log,
    });
  } catch (err) {
    if (!(err instanceof HubError)) throw err;
    return { ok: false, error: err };
  }
}

function answerOf(result: RunResult): JobAnswer {
  if (result.ok) return { ok: true, status: 200, body: successJson(result) };
  return { ok: false, status: result.error.status, body: errorJson(result.error) };
}

/**
 * A batch job: every run answered as the batch request's item would be (each with its own
 * rateLimit), `batchParallel` at once; a run refused for now waits and tries again while
 * the job may wait. The answer is the batch request's 200 body.
 */
async function runBatch(runs: unknown[], source: Source | undefined, ctx: JobRunContext): Promise<JobAnswer> {
  const items: string[] = new Array(runs.length);
  let next = 0;
  const lane = async () => {
    while (next < runs.length) {
      const i = next++;
      const requestId = `${ctx.jobId}:${i}`;
      for (;;) {
        const result = await runGeneric(withSource(runs[i], source), ctx, requestId);
        const waitMs = ctx.stopped() ? null : waitFor(result, Date.now(), ctx.waitUntil);
        if (waitMs === null) {
          items[i] = itemJson(result);
          break;
        }
        await new Promise((r) => setTimeout(r, waitMs));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.batchParallel, runs.length) }, lane));
  return { ok: true, status: 200, body: `{"ok":true,"results":[${items.join(',')}]}` };
}
