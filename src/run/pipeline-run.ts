import { HubError } from '../errors.js';
import { type RateReport, rateReportOfSteps } from '../limits/rate-report.js';
import { fromOf, type PipelineStep, pointerSegments } from '../pipelines/check.js';
import type { PipelineStepMeta, RunMeta } from '../run-meta.js';
import { isObject } from '../shared/is-object.js';
import type { ToolInput } from '../shared/tool-def.js';
import { inSpan } from '../telemetry/spans.js';
import type { RunCall, RunFailure, RunResult } from './run-types.js';

/** A pipeline to run: its checked steps, its input, and the call that asked for it. */
export interface PipelineRun {
  steps: readonly PipelineStep[];
  input: Record<string, unknown>;
  /** The caller (client, tier, surface, source, request id) every step runs as. */
  call: RunCall;
  /** The answer's `runtime` block so far: the pipeline's id, its mode, PIPELINE_TIMEOUT_MS. */
  meta: RunMeta;
}

/**
 * Runs a pipeline's steps in order, each one a run through the facade (`runStep`) under the
 * caller's limits and quotas, as if the caller had made it (docs/api.md, "Pipelines"). A step
 * starts only inside PIPELINE_TIMEOUT_MS, with what is left of it as its deadline (or its
 * tool's timeoutMs, the smaller). The first failing step ends the pipeline with its error,
 * its index and id, and the results of the steps before it. The answer is the last step's
 * result as its worker serialised it; an earlier result is parsed only when a later step reads it.
 */
export function runPipeline(
  run: PipelineRun,
  runStep: (call: RunCall) => Promise<RunResult>,
): Promise<RunResult> {
  return inSpan(`toolhub.pipeline ${run.meta.toolId}`, { 'toolhub.steps': run.steps.length }, () =>
    runSteps(run, runStep),
  );
}

async function runSteps(
  run: PipelineRun,
  runStep: (call: RunCall) => Promise<RunResult>,
): Promise<RunResult> {
  const { call, meta, steps } = run;
  const started = performance.now();
  const done: PipelineStepMeta[] = [];
  const reports: RateReport[] = [];
  const jsons: string[] = [];
  const parsed = new Map<number, unknown>();
  const resultOf = (k: number) => {
    if (!parsed.has(k)) parsed.set(k, JSON.parse(jsons[k]!));
    return parsed.get(k);
  };
  const fail = (i: number, runs: number, error: HubError): RunFailure => {
    const failed: PipelineStepMeta = {
      toolId: steps[i]!.toolId,
      ...(steps[i]!.mode ? { mode: steps[i]!.mode } : {}),
      durationMs: error.runtime?.durationMs ?? 0,
      queuedMs: error.runtime?.queuedMs ?? 0,
      errorCode: error.code,
    };
    const before = done.map((s, k) => ({ ...s, result: resultOf(k) }));
    const rate = reports.length ? rateReportOfSteps(reports, runs) : undefined;
    const runtime: RunMeta = {
      ...meta,
      ...sums(done),
      pipeline: {
        runs,
        wallMs: Math.round(performance.now() - started),
        steps: [...before, failed],
        failedStep: { index: i, toolId: steps[i]!.toolId },
      },
    };
    const rateLimit = error.rateLimit ?? rate?.info;
    const err = new HubError(error.code, `step ${i} (${steps[i]!.toolId}): ${error.message}`, {
      status: error.status,
      headers: { ...error.headers, ...rate?.headers },
      ...(error.reason ? { reason: error.reason } : {}),
      ...(rateLimit ? { rateLimit: { ...rateLimit, runs } } : {}),
      runtime,
      cause: error,
    });
    return rate ? { ok: false, error: err, rate } : { ok: false, error: err };
  };
  for (const [i, step] of steps.entries()) {
    const left = Math.floor(meta.timeoutMs - (performance.now() - started));
    if (left < 1)
      return fail(
        i,
        i,
        new HubError(
          'TIMEOUT',
          `the pipeline used its ${meta.timeoutMs} ms (PIPELINE_TIMEOUT_MS) before this step started`,
        ),
      );
    const input = stepInput(step, run.input, resultOf);
    const result = await runStep({
      toolId: step.toolId,
      surface: call.surface,
      source: call.source,
      resolve: (def) => ({ mode: step.mode ?? def.modes[0]!, input }),
      client: call.client,
      ...(call.tier ? { tier: call.tier } : {}),
      requestId: call.requestId,
      log: call.log,
      cacheControl: call.cacheControl,
      timeoutCapMs: left,
    });
    if (result.rate) reports.push(result.rate);
    if (!result.ok) return fail(i, i + 1, result.error);
    done.push({
      toolId: step.toolId,
      ...(result.meta.mode ? { mode: result.meta.mode } : {}),
      durationMs: result.meta.durationMs,
      queuedMs: result.meta.queuedMs,
      ...(result.meta.cached ? { cached: true as const } : {}),
    });
    jsons.push(result.resultJson);
  }
  return {
    ok: true,
    toolId: meta.toolId,
    resultJson: jsons[jsons.length - 1]!,
    meta: {
      ...meta,
      ...sums(done),
      pipeline: { runs: steps.length, wallMs: Math.round(performance.now() - started), steps: done },
    },
    rate: rateReportOfSteps(reports, steps.length),
    // The answer as a whole is not looked up; each step's run was, like any run of its tool.
    cache: { status: 'bypass', reason: 'off' },
  };
}

function sums(steps: PipelineStepMeta[]): { durationMs: number; queuedMs: number } {
  let durationMs = 0;
  let queuedMs = 0;
  for (const s of steps) {
    durationMs += s.durationMs;
    queuedMs += s.queuedMs;
  }
  return { durationMs: Math.round(durationMs * 100) / 100, queuedMs: Math.round(queuedMs * 100) / 100 };
}

/**
 * A step's named input: each `$from` read from the pipeline's input or an earlier result (a
 * pointer that finds nothing leaves the field out, for the tool's schema to name), each literal
 * copied (the tool's schema may fill defaults into it, and a named pipeline's literals are shared).
 */
function stepInput(
  step: PipelineStep,
  input: Record<string, unknown>,
  resultOf: (k: number) => unknown,
): ToolInput {
  const out: ToolInput = {};
  for (const [field, value] of Object.entries(step.input)) {
    const from = fromOf(value);
    let v: unknown;
    if (typeof from === 'string') {
      const segments = pointerSegments(from)!;
      v =
        segments[0] === 'input'
          ? walk(input, segments.slice(1))
          : walk(resultOf(Number(segments[1])), segments.slice(3));
    } else v = typeof value === 'object' && value !== null ? structuredClone(value) : value;
    if (v !== undefined)
      Object.defineProperty(out, field, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function walk(value: unknown, segments: string[]): unknown {
  let at = value;
  for (const s of segments) {
    if (Array.isArray(at)) at = /^(0|[1-9]\d*)$/.test(s) ? at[Number(s)] : undefined;
    else if (isObject(at) && Object.hasOwn(at, s)) at = at[s];
    else return undefined;
  }
  return at;
}
