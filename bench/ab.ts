/**
 * A/B of two built trees of the hub, for one change at a time (docs/benchmarks.md, "A/B of a
 * change"): the same scenarios as `npm run bench`, each hub a fresh process, in rounds
 * ordered A B B A so that a machine getting slower or faster in a sitting hits both alike.
 *
 *   npx tsx bench/ab.ts --a <tree> --b <tree> [--rounds 6] [--duration 8] [--only hub-run-redis,hub-index]
 *     [--cluster 127.0.0.1:7000,127.0.0.1:7001,…]   (the hubs on a Redis Cluster; Redis CPU of every node)
 *     [--a-env K=V,K=V] [--b-env K=V,…]   (variables of one side's hubs: the same tree with a setting on and off)
 *
 * A side whose OTEL_EXPORTER_OTLP_ENDPOINT is `sink` sends its traces to an OTLP sink here
 * that answers every export with 200 and keeps nothing (the cost of tracing, not of a collector).
 *
 * A tree is a checkout with `npm run build` done (its dist/src/server.js runs); it may share
 * this checkout's node_modules through a symlink.
 */

import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { redisPid } from './cpu.js';
import { runScenario, type Servers } from './execute.js';
import { type HubContext, writePolicyFiles } from './hub.js';
import { parseOptions } from './options.js';
import { stopAll } from './processes.js';
import { allScenarios } from './scenarios.js';
import { type RunRecord, spread } from './stats.js';

const median = (xs: number[]) => spread(xs).median;

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string', default: '6' },
    duration: { type: 'string', default: '8' },
    only: { type: 'string', default: 'hub-run-redis' },
    cluster: { type: 'string' },
    'a-env': { type: 'string', default: '' },
    'b-env': { type: 'string', default: '' },
  },
});
if (!values.a || !values.b) throw new Error('usage: bench/ab.ts --a <built tree> --b <built tree>');
const opts = parseOptions(['--rounds', '3', '--duration', values.duration]);
const wanted = values.only.split(',');
const scenarios = allScenarios(opts).filter((s) => wanted.includes(s.id) && s.target.kind === 'hub');
if (scenarios.length === 0) throw new Error(`no hub scenario named ${values.only}`);

const tmp = await mkdtemp(join(tmpdir(), 'toolhub-ab-'));
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const runId = `ab-${Date.now().toString(36)}-${process.pid}`;
const sink = await otlpSink();
/** `K=V,K=V` as variables; an OTLP endpoint named `sink` is the sink above. */
const envOf = (list: string): Record<string, string> =>
  Object.fromEntries(
    list
      .split(',')
      .filter(Boolean)
      .map((kv) => {
        const [k, ...v] = kv.split('=');
        const value = v.join('=');
        return [k!, k === 'OTEL_EXPORTER_OTLP_ENDPOINT' && value === 'sink' ? sink.url : value];
      }),
  );
const side = (tree: string, env: Record<string, string>): Servers => {
  const hub: HubContext = {
    serverJs: join(resolve(tree), 'dist/src/server.js'),
    dir: tmp,
    redisUrl,
    runId,
    ...(values.cluster ? { clusterNodes: values.cluster } : {}),
    env,
  };
  return { refs: {} as Servers['refs'], hub, redisPids: [] };
};
const sides = { A: side(values.a, envOf(values['a-env'])), B: side(values.b, envOf(values['b-env'])) };
const records: Record<string, { A: RunRecord[]; B: RunRecord[] }> = {};

try {
  await writePolicyFiles(tmp);
  const urls = values.cluster ? values.cluster.split(',').map((n) => `redis://${n}`) : [redisUrl];
  const pids = (await Promise.all(urls.map(redisPid))).filter((p): p is number => p !== null);
  for (const s of Object.values(sides)) s.redisPids = pids;
  const rounds = Number(values.rounds);
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? (['A', 'B'] as const) : (['B', 'A'] as const);
    for (const scenario of scenarios) {
      for (const name of order) {
        const r = await runScenario(scenario, round, sides[name], opts);
        records[scenario.id] ??= { A: [], B: [] };
        records[scenario.id]![name].push(r);
        const cpu = r.cpu ? `${r.cpu.total.toFixed(0)} µs/answer (API ${r.cpu.api.toFixed(0)})` : '';
        console.log(`round ${round} ${scenario.id} ${name}: ${r.goodRps.toFixed(0)} answers/s ${cpu}`);
      }
    }
  }
  console.log('\nmedians (B ÷ A: answers/s up is better, CPU down is better)');
  for (const [id, { A, B }] of Object.entries(records)) {
    const rps = (rs: RunRecord[]) => median(rs.map((r) => r.goodRps));
    const cpu = (rs: RunRecord[], k: 'total' | 'api' | 'helpers' | 'workers' | 'redis') =>
      median(rs.map((r) => r.cpu?.[k] ?? Number.NaN));
    const alloc = (rs: RunRecord[]) => median(rs.map((r) => r.alloc?.main ?? Number.NaN)) / 1024;
    const row = (what: string, a: number, b: number, unit: string) =>
      console.log(
        `${id} ${what.padEnd(14)} A ${a.toFixed(1)}${unit}  B ${b.toFixed(1)}${unit}  B/A ${(b / a).toFixed(3)}`,
      );
    row('answers/s', rps(A), rps(B), '');
    // Each round's B beside its own A (they ran back to back): steadier than two medians
    // when the machine's speed drifts between rounds.
    const paired = A.map((a, i) => (B[i]?.cpu?.total ?? Number.NaN) / (a.cpu?.total ?? Number.NaN));
    const p = spread(paired);
    console.log(
      `${id} CPU total B/A per round: median ${p.median.toFixed(3)} (${p.min.toFixed(3)}–${p.max.toFixed(3)})`,
    );
    for (const k of ['total', 'api', 'workers', 'helpers', 'redis'] as const)
      row(`CPU ${k}`, cpu(A, k), cpu(B, k), ' µs');
    row('API alloc', alloc(A), alloc(B), ' KiB');
  }
} finally {
  await stopAll();
  sink.server.close();
  await rm(tmp, { recursive: true, force: true });
}

/** An OTLP/HTTP endpoint that reads each export and answers 200, keeping nothing. */
async function otlpSink(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
