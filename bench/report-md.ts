import type { BootFigures } from './boot.js';
import type { Machine } from './machine.js';
import { machineLine } from './machine.js';
import type { BenchOptions } from './options.js';
import type { Ratio } from './ratios.js';
import type { ScenarioSummary, Spread } from './stats.js';

export interface SoakRecord {
  seconds: number;
  pid: number;
  /** [seconds since start, RSS bytes] every few seconds. */
  samples: [number, number][];
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface ReportInput {
  machine: Machine;
  options: BenchOptions;
  summaries: ScenarioSummary[];
  ratios: Ratio[];
  soak: SoakRecord | null;
  boot: BootFigures | null;
  problems: string[];
  /** File name of the chart, next to the Markdown file. */
  svgName: string;
}

/** A Markdown table with padded columns, so it reads the same in a terminal. */
export function markdownTable(header: string[], rows: string[][], right: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length), 3));
  const pad = (cells: string[]) =>
    `| ${cells.map((c, i) => (right[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (right[i] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [pad(header), rule, ...rows.map(pad)].join('\n');
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n: number) => (!Number.isFinite(n) ? 'n/a' : n < 10 ? n.toFixed(1) : n.toFixed(0));
const range = (s: Spread, f: (n: number) => string) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
const codes = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');

function notes(s: ScenarioSummary): string {
  const parts: string[] = [];
  if (Object.keys(s.badStatus).length > 0 && s.id !== 'timeout-latency') {
    parts.push(`good ${range(s.goodRps, int)}/s`);
    if (s.goodP99) parts.push(`good p99 ${ms(s.goodP99.median)} ms`);
    parts.push(`good failures ${s.goodFailures}`, `overdue: ${codes(s.badStatus)}`);
  }
  if (s.timeouts) {
    const t = s.timeouts;
    parts.push(`${t.count} TIMEOUT answers: p50 ${ms(t.p50)}, p99 ${ms(t.p99)}, max ${ms(t.max)} ms`);
  }
  return parts.join('; ');
}

export function scenarioTable(summaries: ScenarioSummary[]): string {
  return markdownTable(
    ['scenario', 'conns', 'req/s median (min–max)', 'p50 ms', 'p99 ms', 'errors / non-2xx', 'notes'],
    summaries.map((s) => [
      s.id,
      String(s.connections),
      range(s.rps, int),
      range(s.p50, ms),
      range(s.p99, ms),
      `${s.errors} / ${s.non2xx}`,
      notes(s),
    ]),
    [false, true, true, true, true, true, false],
  );
}

/** CPU by thread role and heap allocation, per good answer (bench/cpu.ts, bench/gc-trace.ts). */
export function costTable(summaries: ScenarioSummary[]): string {
  const us = (n: number | null) => (n === null ? 'n/a' : n.toFixed(0));
  const kb = (n: number | null) => (n === null ? 'n/a' : (n / 1024).toFixed(1));
  return markdownTable(
    [
      'scenario',
      'CPU µs/answer',
      'API thread',
      'workers (each)',
      'helpers',
      'Redis',
      'alloc KiB API / workers',
    ],
    summaries
      .filter((s) => s.cost !== null)
      .map((s) => {
        const c = s.cost!;
        return [
          s.id,
          us(c.total),
          us(c.api),
          c.perWorker.length > 0 ? `${us(c.workers)} (${c.perWorker.map((w) => us(w)).join(' ')})` : '0',
          us(c.helpers),
          us(c.redis),
          `${kb(c.allocMain)} / ${kb(c.allocOthers)}`,
        ];
      }),
    [false, true, true, false, true, true, true],
  );
}

export function ratioTable(ratios: Ratio[]): string {
  return markdownTable(
    ['target', 'measured', 'per round', 'wanted', 'met', 'figures'],
    ratios.map((r) => [
      r.label,
      r.value === null ? 'n/a' : r.value.toFixed(2),
      r.perRound ? `${r.perRound.min.toFixed(2)}–${r.perRound.max.toFixed(2)}` : '',
      `${r.direction === '>=' ? '≥' : '≤'} ${r.target.toFixed(2)}`,
      r.met === null ? 'not measured' : r.met ? 'met' : '**not met**',
      r.detail,
    ]),
    [false, true, true, true, false, false],
  );
}

export function markdownReport(input: ReportInput): string {
  const { machine, options: o } = input;
  const lines = [
    `# Tool Hub benchmark, ${machine.date.slice(0, 10)}`,
    '',
    `Machine: ${machineLine(machine)}. Versions: ${Object.entries(machine.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    '',
    `Settings: ${o.quick ? '**quick mode** (numbers not judged), ' : ''}${o.rounds} round(s) of all scenarios, interleaved; ` +
      `${o.duration} s per run after ${o.warmup} s of unrecorded warm-up; ${o.connections} connections unless noted; ` +
      'keep-alive, pipelining 1; autocannon in the harness process (it shares the cores with the server).',
    '',
    `## Scenarios (medians over ${o.rounds} round(s); min–max in brackets)`,
    '',
    scenarioTable(input.summaries),
    '',
    '## CPU and allocation per good answer (medians over the rounds)',
    '',
    'CPU from /proc per thread: the API (main) thread, the pool workers (each, busiest first: idle ' +
      'spares show as 0), V8 and libuv helper threads, and the Redis server when the run used it. ' +
      'Allocation: bytes allocated on the JavaScript heaps (`--trace-gc-nvp`), API thread / all workers.',
    '',
    costTable(input.summaries),
    '',
    '## Targets',
    '',
    ratioTable(input.ratios),
    '',
    `![Each ratio against its target](${input.svgName})`,
    '',
    '## What each scenario measures',
    '',
    ...input.summaries.map((s) => `- \`${s.id}\`: ${s.measures}.`),
    '',
  ];
  if (input.boot) {
    const b = input.boot;
    const mib = (n: number) => (n / 2 ** 20).toFixed(0);
    lines.push(
      '## Boot and idle memory',
      '',
      `${b.boots} boots each, alternating, before the load scenarios; spawn to the first 200 of \`/readyz\` (hub, Redis limiter) or to listening (bare fastify); RSS after 3 s idle.`,
      '',
      markdownTable(
        ['server', 'boot ms median (min–max)', 'idle RSS MiB median (min–max)'],
        [
          ['hub', range(b.hubMs, int), range(b.hubRss, mib)],
          ['bare fastify', range(b.bareMs, int), range(b.bareRss, mib)],
        ],
        [false, true, true],
      ),
      '',
    );
  }
  if (input.soak) {
    const k = input.soak;
    lines.push(
      '## Soak',
      '',
      `hub-run-redis for ${k.seconds} s (PID ${k.pid}): ${int(k.rps)} req/s, p99 ${ms(k.p99)} ms, errors ${k.errors}, non-2xx ${k.non2xx}.`,
      `RSS (MiB) by second: ${k.samples.map(([t, b]) => `${t}: ${(b / 2 ** 20).toFixed(0)}`).join(', ')}.`,
      '',
    );
  }
  lines.push(
    '## Problems',
    '',
    ...(input.problems.length > 0 ? input.problems.map((p) => `- ${p}`) : ['None.']),
    '',
  );
  return lines.join('\n');
}
