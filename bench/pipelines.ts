import { join } from 'node:path';
import { processCpuNs } from './cpu.js';
import { type HubContext, startHub } from './hub.js';
import { stopServer } from './processes.js';

/** One side of a pipeline's comparison: calls, wall time, the hub's CPU per pipeline's worth. */
export interface PipelineSide {
  perSec: number;
  /** The hub process's CPU (API thread and workers) per pipeline's worth of work, ms. */
  cpuMs: number;
}

export interface PipelineFigures {
  pipeline: string;
  steps: number;
  calls: number;
  clients: number;
  /** One POST /api/pipelines/<id>/ a pipeline. */
  pipelined: PipelineSide;
  /** The same steps as k dedicated calls a pipeline, each waiting for the one before. */
  separate: PipelineSide;
  /** Hub CPU of a pipeline ÷ hub CPU of its k separate calls. */
  cpuRatio: number;
}

/** A step of the client's own chain: its dedicated route and its body from the last result. */
type Step = { path: string; body: (last: Record<string, unknown> | null, i: number) => object };

/** The example pipelines (pipelines/examples.yaml) and what a client does by hand instead. */
const CASES: { id: string; body: (i: number) => object; steps: Step[] }[] = [
  {
    id: 'html-to-token-count',
    body: (i) => ({ html: html(i), model: 'gpt-4o' }),
    steps: [
      { path: '/api/html-markdown/', body: (_l, i) => ({ input: html(i), mode: 'html-to-markdown' }) },
      { path: '/api/token-counter/', body: (l) => ({ text: l!.output, model: 'gpt-4o' }) },
    ],
  },
  {
    id: 'sample-to-strict-schema',
    body: (i) => ({ sample: yaml(i) }),
    steps: [
      { path: '/api/format-detective/convert/', body: (_l, i) => ({ input: yaml(i), to: 'json' }) },
      { path: '/api/schema-generator/', body: (l) => ({ sample: l!.output, mode: 'strict' }) },
      {
        path: '/api/schema-validator/',
        body: (l) => ({ schema: l!.schema, mode: 'schema', provider: 'openai-strict' }),
      },
    ],
  },
];

// Each call's input differs, so no run is a cache hit on either side.
const html = (i: number) =>
  `<h1>Notes ${i}</h1><p>Item <b>${i}</b> of the list, with <a href="/x/${i}">a link</a>.</p><ul><li>one</li><li>two</li></ul>`;
const yaml = (i: number) => `id: ${i}\nname: item ${i}\nactive: true\ntags: [a, b]\n`;

/**
 * The pipelines stage of `npm run bench` (docs/benchmarks.md, "Pipelines"): one hub serving
 * the example pipelines; `calls` pipelines sent by `clients` loops, against the same steps sent
 * as k dedicated calls in a row by the same loops, in alternating rounds. The hub process's
 * CPU (/proc, every thread) is read around each side: the issue's bound is a pipeline costs at
 * most k runs' CPU plus a small constant.
 */
export async function measurePipelines(
  hub: HubContext,
  root: string,
  calls: number,
  clients = 8,
  rounds = 3,
): Promise<PipelineFigures[]> {
  const server = await startHub(
    { redis: false, policy: 'pipelines', env: { PIPELINES_FILE: join(root, 'pipelines', 'examples.yaml') } },
    hub,
  );
  try {
    const post = async (path: string, body: object) => {
      const res = await fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { result?: Record<string, unknown> };
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(answer)}`);
      return answer.result!;
    };
    let seq = 0;
    const inLoops = async (count: number, one: (i: number) => Promise<void>) => {
      let left = count;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (left-- > 0) await one(seq++);
        }),
      );
    };
    const side = async (count: number, one: (i: number) => Promise<void>) => {
      const cpu0 = await processCpuNs(server.pid);
      const t0 = performance.now();
      await inLoops(count, one);
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = await processCpuNs(server.pid);
      return { seconds, cpuNs: cpu0 === null || cpu1 === null ? Number.NaN : cpu1 - cpu0 };
    };
    const figures: PipelineFigures[] = [];
    for (const c of CASES) {
      const pipelined = (i: number) => post(`/api/pipelines/${c.id}/`, c.body(i)).then(() => {});
      const separate = async (i: number) => {
        let last: Record<string, unknown> | null = null;
        for (const step of c.steps) last = await post(step.path, step.body(last, i));
      };
      // Warm the workers and the tools' libraries on both paths; not counted.
      await inLoops(50, pipelined);
      await inLoops(50, separate);
      const sums = { p: { s: 0, ns: 0 }, s: { s: 0, ns: 0 } };
      for (let r = 0; r < rounds; r++) {
        const a = await side(calls, pipelined);
        const b = await side(calls, separate);
        sums.p.s += a.seconds;
        sums.p.ns += a.cpuNs;
        sums.s.s += b.seconds;
        sums.s.ns += b.cpuNs;
      }
      const n = calls * rounds;
      const pSide = { perSec: n / sums.p.s, cpuMs: sums.p.ns / 1e6 / n };
      const sSide = { perSec: n / sums.s.s, cpuMs: sums.s.ns / 1e6 / n };
      figures.push({
        pipeline: c.id,
        steps: c.steps.length,
        calls: n,
        clients,
        pipelined: pSide,
        separate: sSide,
        cpuRatio: pSide.cpuMs / sSide.cpuMs,
      });
    }
    return figures;
  } finally {
    await stopServer(server);
  }
}

export function pipelinesTable(rows: PipelineFigures[]): string {
  return [
    '| pipeline | steps | calls | pipelines/s | k separate calls/s (chains) | hub CPU ms a pipeline | hub CPU ms its k calls | CPU ratio |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.pipeline} | ${r.steps} | ${r.calls} | ${r.pipelined.perSec.toFixed(0)} | ${r.separate.perSec.toFixed(0)} | ${r.pipelined.cpuMs.toFixed(3)} | ${r.separate.cpuMs.toFixed(3)} | ${r.cpuRatio.toFixed(2)} |`,
    ),
  ].join('\n');
}
