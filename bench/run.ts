import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BootFigures, measureBoots } from './boot.js';
import { redisPid } from './cpu.js';
import { stopActiveLoad } from './drive.js';
import { interruption, progressLine, runScenario, type Servers } from './execute.js';
import { type FirstRun, firstRunTable, measureFirstRuns } from './first-runs.js';
import { type HubContext, hubIndexBytes, writePolicyFiles } from './hub.js';
import { type JobsFigures, jobsTable, measureJobs } from './jobs.js';
import { describeMachine, loadNow, machineLine } from './machine.js';
import { parseOptions } from './options.js';
import { measurePipelines, type PipelineFigures, pipelinesTable } from './pipelines.js';
import { killAllNow, StartError, startServer, stopAll } from './processes.js';
import { computeRatios, type SoakFigures } from './ratios.js';
import { costTable, markdownReport, ratioTable, type SoakRecord, scenarioTable } from './report-md.js';
import { ratioChart } from './report-svg.js';
import { measureScaling, type ScalingRow, scalingTable } from './scaling.js';
import { allScenarios, describeScenario } from './scenarios.js';
import { runSoak } from './soak.js';
import { type RunRecord, type ScenarioSummary, summarise } from './stats.js';

/**
 * `npm run bench`: reference servers and hub configurations as separate processes on loopback,
 * driven in interleaved rounds by autocannon; a table of medians, the issue-5 ratios, and the
 * JSON / Markdown / SVG files under bench/results/. Exit 1 when the harness could not measure
 * (a crash, a server that would not start, errors where none are expected), never for a target.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const opts = parseOptions(process.argv.slice(2));
const machine = describeMachine(new Date());
const log = (line: string) => process.stdout.write(`${line}\n`);

// Ctrl-C: stop the load, let the loop unwind through its finally blocks (which stop every
// server by PID); a second Ctrl-C kills them at once. 'exit' is the last line of defence.
process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interruption.requested) {
      killAllNow();
      process.exit(130);
    }
    interruption.requested = true;
    log(`\n${signal}: stopping after cleanup (again to kill at once)`);
    stopActiveLoad();
  });
}

const serverJs = join(root, 'dist', 'src', 'server.js');
if (!existsSync(serverJs)) throw new Error(`${serverJs} is missing: run \`npm run build\` first`);

const scenarios = allScenarios(opts).filter(
  (s) => opts.only.length === 0 || opts.only.some((o) => s.id.includes(o)),
);
const runs: RunRecord[] = [];
const problems: string[] = [];
let soak: { record: SoakRecord; figures: SoakFigures } | null = null;
let boot: BootFigures | null = null;
let firstRuns: FirstRun[] | null = null;
let scaling: ScalingRow[] | null = null;
let jobs: JobsFigures[] | null = null;
let pipelines: PipelineFigures[] | null = null;
const tmp = await mkdtemp(join(tmpdir(), 'toolhub-bench-'));

log(`Tool Hub benchmark: ${machineLine(machine)}`);
log(
  `${opts.quick ? 'quick mode, ' : ''}${opts.rounds} round(s) × ${scenarios.length} scenarios, ${opts.duration} s each (+${opts.warmup} s warm-up)\n`,
);
try {
  await writePolicyFiles(tmp);
  const hub: HubContext = {
    serverJs,
    dir: tmp,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    runId: `${Date.now().toString(36)}-${process.pid}`,
  };
  const refScript = join(root, 'bench', 'ref-server.mjs');
  const ref = (name: string, ...args: string[]) =>
    startServer({ name, args: [refScript, ...args], env: { PATH: process.env.PATH ?? '' } });
  const indexFile = join(tmp, 'skills-index.json');
  await writeFile(indexFile, await hubIndexBytes(hub));
  // The reference servers live for the whole sitting; idle, they cost nothing.
  const servers: Servers = {
    refs: {
      'ref-get': await ref('ref-get', 'get'),
      'ref-get-index': await ref('ref-get-index', 'get-bytes', indexFile),
      'ref-post': await ref('ref-post', 'post'),
    },
    hub,
    redisPids: [await redisPid(hub.redisUrl)].filter((p): p is number => p !== null),
  };

  // Boots first, on a machine no load scenario has warmed or loaded yet.
  if (opts.only.length === 0 || opts.only.includes('boot')) {
    boot = await measureBoots(opts.quick ? 2 : 5, hub, refScript);
    log(
      `boot: hub ${boot.hubMs.median.toFixed(0)} ms to ready (${boot.hubMs.min.toFixed(0)}–${boot.hubMs.max.toFixed(0)}), ` +
        `bare fastify ${boot.bareMs.median.toFixed(0)} ms; idle RSS hub ${(boot.hubRss.median / 2 ** 20).toFixed(0)} MiB, ` +
        `bare fastify ${(boot.bareRss.median / 2 ** 20).toFixed(0)} MiB\n`,
    );
  }
  // What each tool's libraries cost to load, on a fresh worker (the boot does not load them).
  if (opts.only.length === 0 || opts.only.includes('first-runs')) {
    firstRuns = await measureFirstRuns(hub);
    log(`first runs (one worker thread, each example twice):\n${firstRunTable(firstRuns)}\n`);
  }
  // Jobs (POST /api/jobs/) against the synchronous run of the same tool, side by side.
  if (opts.only.length === 0 || opts.only.includes('jobs')) {
    const n = opts.quick ? 300 : 2000;
    jobs = [];
    for (const concurrency of opts.quick ? [4] : [4, 16])
      jobs.push(await measureJobs(hub, servers.redisPids[0] ?? null, n, 32, concurrency));
    log(`jobs against synchronous runs (token-counter, 32 clients):\n${jobsTable(jobs)}\n`);
  }
  // A pipeline against its steps sent one by one by the client, side by side.
  if (opts.only.length === 0 || opts.only.includes('pipelines')) {
    pipelines = await measurePipelines(hub, root, opts.quick ? 100 : 500);
    log(`pipelines against their steps called one by one (8 clients):\n${pipelinesTable(pipelines)}\n`);
  }
  if (opts.scaling.length > 0) {
    log(`scaling: HUB_PROCESSES ${opts.scaling.join(', ')} beside as many bare fastify processes`);
    scaling = await measureScaling(
      opts.scaling,
      hub,
      refScript,
      opts.duration,
      opts.connections,
      servers.redisPids[0] ?? null,
      opts.cpus,
    );
    log(`${scalingTable(scaling)}\n`);
  }
  for (let round = 1; round <= opts.rounds && !interruption.requested; round++) {
    for (const [i, scenario] of scenarios.entries()) {
      if (interruption.requested) break;
      const index = `[round ${round}/${opts.rounds} ${String(i + 1).padStart(2)}/${scenarios.length}]`;
      try {
        const record = await runScenario(scenario, round, servers, opts);
        runs.push(record);
        problems.push(...record.problems);
        log(progressLine(record, index));
        for (const p of record.problems) log(`  problem: ${p}`);
      } catch (error) {
        if (interruption.requested) break;
        // A server that will not start ends the sitting (every later run would fail the same
        // way); anything else is recorded and the rest still measures.
        if (error instanceof StartError) throw error;
        const message = `${scenario.id} round ${round}: ${(error as Error).message}`;
        problems.push(message);
        log(`${index} ${scenario.id} FAILED: ${message}`);
      }
    }
  }
  if (opts.soak && !interruption.requested) {
    const headline = allScenarios(opts).find((s) => s.id === 'hub-run-redis')!;
    log(`\nsoak: hub-run-redis for ${opts.soakSeconds} s`);
    const result = await runSoak(headline, opts.soakSeconds, hub);
    soak = { record: result.record, figures: result.figures };
    problems.push(...result.problems);
  }
} catch (error) {
  const e = error as Error;
  problems.push(e instanceof StartError ? e.message : `harness failed: ${e.stack ?? String(e)}`);
} finally {
  await stopAll();
  await rm(tmp, { recursive: true, force: true });
}
if (interruption.requested) problems.push('interrupted (SIGINT/SIGTERM): partial results');
machine.loadAverageEnd = loadNow();

const summaries: ScenarioSummary[] = scenarios
  .map((s) => ({ scenario: s, mine: runs.filter((r) => r.scenario === s.id) }))
  .filter(({ mine }) => mine.length > 0)
  .map(({ scenario, mine }) => summarise(scenario, mine));
const ratios = computeRatios(new Map(summaries.map((s) => [s.id, s])), runs, soak?.figures ?? null, boot);

log(`\n${scenarioTable(summaries)}\n\n${costTable(summaries)}\n\n${ratioTable(ratios)}\n`);
for (const p of problems) log(`problem: ${p}`);

const date = machine.date.slice(0, 10);
// Smoke and partial runs never overwrite the day's full results the README quotes.
const outDir = join(root, 'bench', 'results', opts.quick ? 'quick' : opts.only.length > 0 ? 'partial' : '');
const svgName = `${date}.svg`;
const title = `Tool Hub: ratios against the issue-5 targets, ${date}${opts.quick ? ' (quick mode)' : opts.only.length > 0 ? ' (partial run)' : ''}`;
const files: [string, string][] = [
  [
    `${date}.json`,
    `${JSON.stringify({ machine, options: opts, scenarios: scenarios.map(describeScenario), runs, summaries, ratios, boot, firstRuns, scaling, jobs, pipelines, soak: soak?.record ?? null, problems }, null, 2)}\n`,
  ],
  [
    `${date}.md`,
    markdownReport({
      machine,
      options: opts,
      summaries,
      ratios,
      soak: soak?.record ?? null,
      boot,
      problems,
      svgName,
    }) +
      (firstRuns ? `\n## First runs\n\n${firstRunTable(firstRuns)}\n` : '') +
      (jobs ? `\n## Jobs against synchronous runs\n\n${jobsTable(jobs)}\n` : '') +
      (pipelines ? `\n## Pipelines against their steps one by one\n\n${pipelinesTable(pipelines)}\n` : '') +
      (scaling ? `\n## Scaling (HUB_PROCESSES)\n\n${scalingTable(scaling)}\n` : ''),
  ],
  [svgName, ratioChart(ratios, title, machineLine(machine))],
];
// A run cut short by Ctrl-C must not overwrite the day's complete results.
if (interruption.requested) {
  log('interrupted: no result files written');
  process.exitCode = 130;
} else {
  await mkdir(outDir, { recursive: true });
  for (const [name, text] of files) await writeFile(join(outDir, name), text);
  log(`wrote ${files.map(([name]) => relative(root, join(outDir, name))).join(', ')}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
