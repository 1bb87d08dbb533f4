import { processCpuNs } from './cpu.js';
import { type HubContext, startHub } from './hub.js';
import { stopServer } from './processes.js';

/** One side of the jobs stage: how many runs, in how long, and what Redis spent on them. */
export interface JobsSide {
  runs: number;
  seconds: number;
  perSec: number;
  /** Redis CPU per run, ms (null when Redis's process could not be read). */
  redisCpuMs: number | null;
}

export interface JobsFigures {
  jobsConcurrency: number;
  clients: number;
  sync: JobsSide;
  jobs: JobsSide;
  /** Jobs submitted and completed per second ÷ synchronous runs per second. */
  ratio: number;
}

const BODY = JSON.stringify({
  toolId: 'token-counter',
  input: { a: 'the quick brown fox jumps over the lazy dog' },
});
const HEADERS = { 'content-type': 'application/json' };

/**
 * The jobs stage of `npm run bench` (docs/benchmarks.md, "Jobs against synchronous runs"):
 * one hub on Redis; `n` token counts sent synchronously by `clients` loops, then the same
 * `n` as jobs (POST /api/jobs/, 202) by the same loops, timed from the first submission to
 * the last job finished (read from the hub's own toolhub_jobs_finished_total). Redis's CPU
 * is read from its process before and after each side.
 */
export async function measureJobs(
  hub: HubContext,
  redisPid: number | null,
  n: number,
  clients = 32,
  jobsConcurrency = 4,
): Promise<JobsFigures> {
  const server = await startHub(
    {
      redis: true,
      policy: 'fast',
      // Counted on every request, never refusing: the stage measures the door, not its limit.
      env: { JOBS_CONCURRENCY: String(jobsConcurrency), JOBS_REQUEST_LIMIT: '10000000' },
    },
    hub,
  );
  try {
    const post = async (path: string, want: number) => {
      const res = await fetch(`${server.base}${path}`, { method: 'POST', headers: HEADERS, body: BODY });
      await res.arrayBuffer();
      if (res.status !== want) throw new Error(`${path} answered ${res.status}`);
    };
    const inLoops = async (count: number, one: () => Promise<void>) => {
      let left = count;
      await Promise.all(
        Array.from({ length: clients }, async () => {
          while (left-- > 0) await one();
        }),
      );
    };
    // Warm the pool and the tokenizer on both paths; these are not counted.
    await inLoops(200, () => post('/api/tools/run/', 200));
    await inLoops(50, () => post('/api/jobs/', 202));
    const done = async () => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      const line = /^toolhub_jobs_finished_total\{outcome="succeeded"\} (\d+)/m.exec(text);
      return Number(line?.[1] ?? 0);
    };
    while ((await done()) < 50) await new Promise((r) => setTimeout(r, 50));

    const side = async (run: () => Promise<void>): Promise<JobsSide> => {
      const cpu0 = redisPid === null ? null : await processCpuNs(redisPid);
      const t0 = performance.now();
      await run();
      const seconds = (performance.now() - t0) / 1000;
      const cpu1 = redisPid === null ? null : await processCpuNs(redisPid);
      const redisCpuMs = cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / 1e6 / n;
      return { runs: n, seconds, perSec: n / seconds, redisCpuMs };
    };
    const sync = await side(() => inLoops(n, () => post('/api/tools/run/', 200)));
    const before = await done();
    const jobs = await side(async () => {
      await inLoops(n, () => post('/api/jobs/', 202));
      while ((await done()) < before + n) await new Promise((r) => setTimeout(r, 20));
    });
    return { jobsConcurrency, clients, sync, jobs, ratio: jobs.perSec / sync.perSec };
  } finally {
    await stopServer(server);
  }
}

export function jobsTable(rows: JobsFigures[]): string {
  const ms = (v: number | null) => (v === null ? 'n/a' : v.toFixed(3));
  return [
    '| JOBS_CONCURRENCY | runs | sync runs/s | jobs/s (submitted and completed) | ratio | Redis CPU ms per sync run | Redis CPU ms per job |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.jobsConcurrency} | ${r.sync.runs} | ${r.sync.perSec.toFixed(0)} | ${r.jobs.perSec.toFixed(0)} | ${r.ratio.toFixed(2)} | ${ms(r.sync.redisCpuMs)} | ${ms(r.jobs.redisCpuMs)} |`,
    ),
  ].join('\n');
}
