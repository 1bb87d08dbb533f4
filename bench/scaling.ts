import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { poolThreadsPerProcess } from '../src/cluster/sizing.js';
import { processCpuNs } from './cpu.js';
import { drive, type RequestSpec } from './drive.js';
import { type HubContext, startHub } from './hub.js';
import { REF_POST_BODY, SHORT_TEXT, tokenCounterBody } from './payloads.js';
import { type ServerProcess, startServer, stopServer } from './processes.js';

/** One step of the curve: N hub processes against N bare fastify processes, one Redis. */
export interface ScalingRow {
  processes: number;
  hubRps: number;
  bareRps: number;
  /** hubRps / (N × the hub's rps at one process): 1 is perfect scaling. */
  efficiency: number | null;
  /** CPU of the hub's processes (the primary and its API processes, every thread) per answer, µs. */
  hubCpuUs: number | null;
  /** The Redis server's CPU per answer, µs. */
  redisUs: number | null;
  /** Cores each API process (and each bare process) was pinned to, or why not. */
  pinning: string;
}

const RUN: RequestSpec = {
  kind: 'good',
  method: 'POST',
  path: '/api/tools/run/',
  body: tokenCounterBody(SHORT_TEXT),
};
const BARE: RequestSpec = { kind: 'good', method: 'POST', path: '/', body: REF_POST_BODY };

/** The PIDs of a process and its children (/proc): the primary and its API processes. */
async function tree(pid: number): Promise<number[]> {
  const { readdir } = await import('node:fs/promises');
  const out = [pid];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'latin1');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

async function treeCpuNs(pid: number): Promise<number> {
  let ns = 0;
  for (const p of await tree(pid)) ns += (await processCpuNs(p)) ?? 0;
  return ns;
}

/**
 * Pins each child of `pid` (the API processes, every thread: `taskset -a`) to its own
 * `cores / N` of `cores`, where there is a core for each and taskset is there; says which.
 */
function pin(children: number[], cores: number[]): string {
  const each = Math.floor(cores.length / children.length);
  if (each < 1) return `not pinned (${children.length} processes, ${cores.length} cores)`;
  try {
    for (const [i, child] of children.entries()) {
      const mine = cores.slice(i * each, (i + 1) * each).join(',');
      execFileSync('taskset', ['-a', '-pc', mine, String(child)], { stdio: 'ignore' });
    }
    return `${each} core(s) each`;
  } catch (error) {
    return `not pinned (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Answers/s of `server` under `connections` for `seconds`, after a warm-up, with its CPU and Redis's. */
async function measure(
  server: ServerProcess,
  request: RequestSpec,
  seconds: number,
  connections: number,
  redisPid: number | null,
): Promise<{ rps: number; cpuUs: number | null; redisUs: number | null }> {
  await drive({ base: server.base, connections, duration: 2, requests: [request] });
  const cpu0 = await treeCpuNs(server.pid);
  const redis0 = redisPid === null ? null : await processCpuNs(redisPid);
  const result = await drive({ base: server.base, connections, duration: seconds, requests: [request] });
  const cpu1 = await treeCpuNs(server.pid);
  const redis1 = redisPid === null ? null : await processCpuNs(redisPid);
  const answers = result.good.ok;
  const per = (ns: number) => (answers > 0 ? ns / 1000 / answers : null);
  return {
    rps: result.rps,
    cpuUs: per(cpu1 - cpu0),
    redisUs: redis0 === null || redis1 === null ? null : per(redis1 - redis0),
  };
}

/**
 * The scaling stage of `npm run bench -- --scaling` (docs/benchmarks.md, "Every core of the
 * box"): for each N, a hub with HUB_PROCESSES=N (Redis limiter, the default pool rule) and
 * then N bare fastify processes on one port (bench/ref-server.mjs, REF_PROCESSES=N), each
 * driven alone at `connections`. Each API process (every thread of it) is pinned to its own
 * `CPUs / N` cores where there are enough (taskset); the primary and the load generator are not.
 */
export async function measureScaling(
  counts: number[],
  hub: HubContext,
  refScript: string,
  seconds: number,
  connections: number,
  redisPid: number | null,
  cpus: number[] = [],
): Promise<ScalingRow[]> {
  const cores = cpus.length > 0 ? cpus : Array.from({ length: availableParallelism() }, (_, i) => i);
  const rows: ScalingRow[] = [];
  for (const n of counts) {
    // With --cpus, each process gets the pool the hub would size for its share of those cores
    // (the hub itself sizes from the cores it may use at boot, which are the bench's own).
    const poolThreads = cpus.length > 0 ? { poolThreads: poolThreadsPerProcess(n, cpus.length) } : {};
    const hubServer = await startHub({ redis: true, policy: 'fast', processes: n, ...poolThreads }, hub);
    let hubFigures: Awaited<ReturnType<typeof measure>>;
    let pinning: string;
    try {
      // One process: the server itself; more: the primary's API processes.
      pinning = pin(n === 1 ? [hubServer.pid] : (await tree(hubServer.pid)).slice(1), cores);
      hubFigures = await measure(hubServer, RUN, seconds, connections, redisPid);
    } finally {
      await stopServer(hubServer);
    }
    const bare = await startServer({
      name: `bare fastify ×${n}`,
      args: [refScript, 'post'],
      env: { PATH: process.env.PATH ?? '', REF_PROCESSES: String(n) },
    });
    let bareFigures: Awaited<ReturnType<typeof measure>>;
    try {
      pin(n === 1 ? [bare.pid] : (await tree(bare.pid)).slice(1), cores);
      bareFigures = await measure(bare, BARE, seconds, connections, null);
    } finally {
      await stopServer(bare);
    }
    const one = rows[0]?.hubRps ?? (n === 1 ? hubFigures.rps : undefined);
    rows.push({
      processes: n,
      hubRps: hubFigures.rps,
      bareRps: bareFigures.rps,
      efficiency: one === undefined ? null : hubFigures.rps / (n * one),
      hubCpuUs: hubFigures.cpuUs,
      redisUs: hubFigures.redisUs,
      pinning,
    });
  }
  return rows;
}

/** The curve as a Markdown table. */
export function scalingTable(rows: ScalingRow[]): string {
  const f = (n: number | null, d = 0) => (n === null ? 'n/a' : n.toFixed(d));
  return [
    '| processes | hub answers/s | bare fastify req/s | hub rps / (N × rps at 1) | hub CPU µs/answer | Redis µs/answer | pinning |',
    '|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.processes} | ${f(r.hubRps)} | ${f(r.bareRps)} | ${f(r.efficiency, 2)} | ${f(r.hubCpuUs)} | ${f(r.redisUs, 1)} | ${r.pinning} |`,
    ),
  ].join('\n');
}
