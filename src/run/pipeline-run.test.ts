import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HubError } from '../errors.js';
import type { RateReport } from '../limits/rate-report.js';
import type { PipelineStep } from '../pipelines/check.js';
import type { RunMeta } from '../run-meta.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { runPipeline } from './pipeline-run.js';
import type { RunCall, RunResult } from './run-types.js';

/**
 * The pipeline runner (src/run/pipeline-run.ts) on a fake clock, its steps answered by a fake
 * facade: the wiring of each step's input, the deadline each step gets, the end at a failing
 * step, and the rate report. The real runs are test/pipelines.test.ts's.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

const report = (name: string, remaining: number): RateReport => ({
  info: { limit: 10, burst: 0, windowSec: 60, remaining, resetMs: 1000, retryAfterSec: 0 },
  headers: { 'X-RateLimit-Remaining': remaining },
  policyItems: [{ name, q: 10, w: 60 }],
  limitItems: [{ name, r: remaining, t: 60 }],
});

const meta: RunMeta = {
  toolId: 'p',
  requestId: 'r1',
  surface: 'dedicated',
  source: 'api',
  timeoutMs: 1000,
  durationMs: 0,
  queuedMs: 0,
  mode: 'run',
};
const call: RunCall = {
  toolId: 'p',
  surface: 'dedicated',
  source: 'api',
  resolve: () => ({ mode: 'run', input: {} }),
  client: 'c1',
  requestId: 'r1',
  log: { error() {}, warn() {} },
};
const def = { modes: ['first', 'second'] } as unknown as ToolSpec;

/** A facade whose runs answer `answers[i]` after `ms[i]` of fake time; it records the calls. */
function fakeFacade(answers: ((input: Record<string, unknown>) => RunResult)[], ms: number[] = []) {
  const calls: { call: RunCall; mode: string; input: Record<string, unknown> }[] = [];
  const run = async (c: RunCall): Promise<RunResult> => {
    const i = calls.length;
    const { mode, input } = c.resolve(def);
    calls.push({ call: c, mode, input });
    vi.advanceTimersByTime(ms[i] ?? 0);
    return answers[i]!(input);
  };
  return { run, calls };
}
const ok = (toolId: string, result: unknown, remaining = 5): RunResult => ({
  ok: true,
  toolId,
  resultJson: JSON.stringify(result),
  meta: { ...meta, toolId, durationMs: 2, queuedMs: 1 },
  rate: report(toolId, remaining),
  cache: { status: 'bypass', reason: 'off' },
});

const steps: PipelineStep[] = [
  { toolId: 'a', mode: 'second', input: { text: { $from: '/input/text' }, fixed: { deep: [1] } } },
  { toolId: 'b', input: { value: { $from: '/steps/0/result/list/1' }, text: { $from: '/input/text' } } },
  { toolId: 'c', input: { missing: { $from: '/steps/1/result/nope' }, whole: { $from: '/steps/0/result' } } },
];

describe('a pipeline run', () => {
  it('wires each step from the input and earlier results, and answers the last result as it came', async () => {
    const f = fakeFacade([
      () => ok('a', { list: ['x', 'y'] }, 7),
      () => ok('b', { n: 1 }, 3),
      () => ({ ...ok('c', null, 9), resultJson: '{"kept":  "as sent"}' }),
    ]);
    const result = await runPipeline({ steps, input: { text: 'hi' }, call, meta }, f.run);
    expect(f.calls.map((c) => [c.call.toolId, c.mode])).toEqual([
      ['a', 'second'],
      ['b', 'first'],
      ['c', 'first'],
    ]);
    expect(f.calls[0]!.input).toEqual({ text: 'hi', fixed: { deep: [1] } });
    // A literal is a copy: a tool's schema filling defaults into it cannot change the pipeline.
    expect(f.calls[0]!.input.fixed).not.toBe(steps[0]!.input.fixed);
    expect(f.calls[1]!.input).toEqual({ value: 'y', text: 'hi' });
    // A pointer that finds nothing leaves the field out.
    expect(f.calls[2]!.input).toEqual({ whole: { list: ['x', 'y'] } });
    expect(f.calls.every((c) => c.call.client === 'c1' && c.call.surface === 'dedicated')).toBe(true);
    if (!result.ok) throw result.error;
    expect(result.resultJson).toBe('{"kept":  "as sent"}');
    expect(result.meta.pipeline).toMatchObject({
      runs: 3,
      steps: [{ toolId: 'a' }, { toolId: 'b' }, { toolId: 'c' }],
    });
    expect(result.meta.durationMs).toBe(6);
    // The block of the step with the fewest left, and the runs spent; every step's limit in the fields.
    expect(result.rate.info).toMatchObject({ remaining: 3, runs: 3 });
    expect(result.rate.headers.RateLimit).toBe('"b";r=3;t=60, "a";r=7;t=60, "c";r=9;t=60');
  });

  it("gives each step what is left of the pipeline's time as its deadline, and starts none after it", async () => {
    const f = fakeFacade([() => ok('a', { list: [] }), () => ok('b', {}), () => ok('c', {})], [400, 650, 0]);
    const result = await runPipeline({ steps, input: { text: 'hi' }, call, meta }, f.run);
    expect(f.calls.map((c) => c.call.timeoutCapMs)).toEqual([1000, 600]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('TIMEOUT');
    expect(result.error.message).toMatch(/^step 2 \(c\): the pipeline used its 1000 ms/);
    expect(result.error.runtime?.pipeline).toMatchObject({ runs: 2, failedStep: { index: 2, toolId: 'c' } });
  });

  it('ends at the first failing step with its error, its index and the results before it', async () => {
    const refusal = new HubError('RATE_LIMITED', 'rate limit of b reached', {
      headers: { 'Retry-After': 12 },
      rateLimit: { ...report('b', 0).info, retryAfterSec: 12 },
    });
    const f = fakeFacade([
      () => ok('a', { list: ['x', 'y'] }),
      () => ({ ok: false, error: refusal, rate: report('b', 0) }),
    ]);
    const result = await runPipeline({ steps, input: { text: 'hi' }, call, meta }, f.run);
    expect(f.calls).toHaveLength(2);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const e = result.error;
    expect([e.code, e.status, e.message]).toEqual([
      'RATE_LIMITED',
      429,
      'step 1 (b): rate limit of b reached',
    ]);
    expect(e.headers['Retry-After']).toBe(12);
    expect(e.rateLimit).toMatchObject({ remaining: 0, retryAfterSec: 12, runs: 2 });
    expect(e.runtime?.pipeline?.failedStep).toEqual({ index: 1, toolId: 'b' });
    expect(e.runtime?.pipeline?.steps).toEqual([
      { toolId: 'a', mode: 'run', durationMs: 2, queuedMs: 1, result: { list: ['x', 'y'] } },
      { toolId: 'b', durationMs: 0, queuedMs: 0, errorCode: 'RATE_LIMITED' },
    ]);
  });
});
