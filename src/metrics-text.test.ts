import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from './fast-metrics.js';
import { metricsFormat, renderMetrics } from './metrics-text.js';

const TRACE = { trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' };

async function processMetrics(traced: Record<string, string> | null, value: number) {
  const registry = new Registry();
  const runs = new FastCounter('toolhub_runs_total', 'runs', ['tool'], registry);
  const seconds = new FastHistogram(
    'toolhub_run_duration_seconds',
    'time',
    ['tool'],
    [0.01, 0.1, 1],
    registry,
  );
  new Counter({ name: 'toolhub_worker_restarts_total', help: 'restarts', registers: [registry] }).inc();
  runs.inc('t');
  if (traced) seconds.observeTraced(value, traced, 't');
  else seconds.observe(value, 't');
  return registry.getMetricsAsJSON() as never;
}

describe('renderMetrics', () => {
  it('negotiates OpenMetrics from the Accept header', () => {
    expect(metricsFormat(undefined)).toBe('prometheus');
    expect(metricsFormat('text/plain;version=0.0.4')).toBe('prometheus');
    expect(metricsFormat('application/openmetrics-text;version=1.0.0,text/plain;q=0.5')).toBe('openmetrics');
  });

  it('writes the exemplar of a traced observation on its bucket in OpenMetrics only', async () => {
    const parts = [await processMetrics(TRACE, 0.05)];
    const om = await renderMetrics(parts, 'openmetrics');
    expect(om).toMatch(
      /^toolhub_run_duration_seconds_bucket\{le="0.1",tool="t"\} 1 # \{trace_id="0af7651916cd43dd8448eb211c80319c",span_id="b7ad6b7169203331"\} 0.05 \d+(\.\d+)?$/m,
    );
    expect(om).not.toMatch(/le="0.01".*# \{/);
    expect(om.endsWith('# EOF\n')).toBe(true);
    const text = await renderMetrics(parts, 'prometheus');
    expect(text).not.toContain('trace_id');
    expect(text).toMatch(/^toolhub_run_duration_seconds_bucket\{le="0.1",tool="t"\} 1$/m);
  });

  it('names counters as each format does, and rendering one format leaves the other as it was', async () => {
    const parts = [await processMetrics(null, 0.5)];
    const before = await renderMetrics(parts, 'prometheus');
    const om = await renderMetrics(parts, 'openmetrics');
    expect(om).toMatch(/^# TYPE toolhub_runs counter$/m);
    expect(om).toMatch(/^toolhub_runs_total\{tool="t"\} 1$/m);
    expect(om).toMatch(/^# TYPE toolhub_worker_restarts counter$/m);
    expect(om).not.toContain('_total_total');
    expect(await renderMetrics(parts, 'prometheus')).toBe(before);
    expect(before).toMatch(/^# TYPE toolhub_runs_total counter$/m);
  });

  it('sums processes and keeps the newest exemplar of each bucket among them', async () => {
    const older = { ...TRACE, trace_id: '1'.repeat(32) };
    const a = await processMetrics(older, 0.05);
    await new Promise((r) => setTimeout(r, 5));
    const b = await processMetrics(TRACE, 0.06);
    const om = await renderMetrics([a, b], 'openmetrics');
    expect(om).toMatch(/^toolhub_runs_total\{tool="t"\} 2$/m);
    expect(om).toMatch(
      new RegExp(
        `^toolhub_run_duration_seconds_bucket\\{le="0.1",tool="t"\\} 2 # \\{trace_id="${TRACE.trace_id}"`,
        'm',
      ),
    );
    expect(om).not.toContain(older.trace_id);
  });
});
