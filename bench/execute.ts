import { cpuPerRequest, processCpuNs, readThreadCpu } from './cpu.js';
import { drive } from './drive.js';
import { allocPerRequest } from './gc-trace.js';
import { type HubContext, startHub } from './hub.js';
import type { BenchOptions } from './options.js';
import { readRss, type ServerProcess, stopServer } from './processes.js';
import type { RefServer, Scenario } from './scenarios.js';
import { percentile, type RunRecord, runProblems } from './stats.js';

export interface Servers {
  refs: Record<RefServer, ServerProcess>;
  hub: HubContext;
  /** The Redis server the hubs use (its CPU is charged to runs that use it); null: unknown. */
  /** The Redis servers' pids (every node of a Cluster): their CPU is the Redis figure. */
  redisPids: number[];
}

/** Set by SIGINT: the loop stops before the next run instead of starting more processes. */
export const interruption = { requested: false };

/**
 * One measured run of one scenario: its server (a fresh hub process, or the long-lived reference
 * server), an unrecorded warm-up, the measured load, the RSS after it; the hub stopped after.
 */
export async function runScenario(
  scenario: Scenario,
  round: number,
  servers: Servers,
  opts: BenchOptions,
): Promise<RunRecord> {
  const { target } = scenario;
  // A fresh hub per run: no run inherits another's rate-limit windows, heap or worker state.
  const server =
    target.kind === 'ref' ? servers.refs[target.server] : await startHub(target.config, servers.hub);
  try {
    const base = server.base;
    await drive({
      base,
      connections: scenario.connections,
      duration: opts.warmup,
      requests: scenario.warmup,
    });
    if (interruption.requested) throw new Error('interrupted');
    const startedAt = new Date().toISOString();
    const usesRedis = target.kind === 'hub' && target.config.redis && servers.redisPids.length > 0;
    const redisBefore = usesRedis ? await cpuOf(servers.redisPids) : null;
    const threadsBefore = await readThreadCpu(server.pid);
    const gcBefore = server.gc.snapshot();
    const result = await drive({
      base,
      connections: scenario.connections,
      duration: opts.duration,
      requests: scenario.requests,
      ...(scenario.neighbour ? { neighbour: scenario.neighbour } : {}),
    });
    const threadsAfter = await readThreadCpu(server.pid);
    const redisAfter = usesRedis ? await cpuOf(servers.redisPids) : null;
    const gcAfter = server.gc.snapshot();
    if (interruption.requested) throw new Error('interrupted');
    const rssAfter = await readRss(server.pid);
    const answers = result.good.ok;
    const redisNs = redisBefore !== null && redisAfter !== null ? redisAfter - redisBefore : null;
    const { goodLatencies, ...kept } = result;
    goodLatencies.sort((a, b) => a - b);
    const problems = runProblems(scenario, result);
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
      problems.push(`${scenario.id}: ${server.name} exited during the run\n${server.stderr().trim()}`);
    }
    return {
      scenario: scenario.id,
      round,
      startedAt,
      server: server.name,
      pid: server.pid,
      result: {
        ...kept,
        goodP50: goodLatencies.length > 0 ? percentile(goodLatencies, 50) : null,
        goodP99: goodLatencies.length > 0 ? percentile(goodLatencies, 99) : null,
      },
      goodRps: result.durationSec > 0 ? result.good.ok / result.durationSec : 0,
      rssAfter,
      cpu: cpuPerRequest(server.pid, threadsBefore, threadsAfter, answers, redisNs),
      alloc: allocPerRequest(gcBefore, gcAfter, answers),
      problems,
    };
  } finally {
    if (target.kind === 'hub') await stopServer(server);
  }
}

export function progressLine(r: RunRecord, index: string): string {
  const x = r.result;
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const good =
    Object.keys(x.bad.status).length > 0 ? `  good ${fmt(r.goodRps)}/s failed ${x.good.failed}` : '';
  const t = x.timeoutLatencies.length > 0 ? `  TIMEOUT n=${x.timeoutLatencies.length}` : '';
  return `${index} ${r.scenario.padEnd(16)} ${fmt(x.rps).padStart(7)} req/s  p50 ${x.p50} ms  p99 ${x.p99} ms  errors ${x.errors}  non-2xx ${x.non2xx}${good}${t}`;
}

/** The CPU of several processes together; null when one cannot be read. */
async function cpuOf(pids: number[]): Promise<number | null> {
  let ns = 0;
  for (const pid of pids) {
    const one = await processCpuNs(pid);
    if (one === null) return null;
    ns += one;
  }
  return ns;
}
