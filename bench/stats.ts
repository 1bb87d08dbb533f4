import type { CpuPerRequest } from './cpu.js';
import type { DriveResult } from './drive.js';
import type { AllocPerRequest } from './gc-trace.js';
import type { Scenario } from './scenarios.js';

/** A figure over the rounds: the median is quoted, min and max show the spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** What the JSON keeps of one measured run (raw latency arrays are summarised, not stored). */
export interface RunRecord {
  scenario: string;
  round: number;
  startedAt: string;
  server: string;
  pid: number;
  result: Omit<DriveResult, 'goodLatencies'> & { goodP50: number | null; goodP99: number | null };
  /** Good 2xx answers per second of the run (for mixes: the noisy-neighbour figure). */
  goodRps: number;
  /** Resident memory of the server process right after the run, bytes. */
  rssAfter: number | null;
  /** CPU per good answer by thread role (µs), and heap allocation per good answer (bytes). */
  cpu: CpuPerRequest | null;
  alloc: AllocPerRequest | null;
  problems: string[];
}

export interface ScenarioSummary {
  id: string;
  measures: string;
  connections: number;
  runs: number;
  rps: Spread;
  p50: Spread;
  p99: Spread;
  goodRps: Spread;
  /** Sums over the rounds. */
  errors: number;
  non2xx: number;
  goodFailures: number;
  status: Record<string, number>;
  badStatus: Record<string, number>;
  /** Good-request p99 of mixes (autocannon's p99 there mixes in the overdue runs). */
  goodP99: Spread | null;
  /** TIMEOUT answers of all rounds pooled: a handful per round is too few for a p99 alone. */
  timeouts: { count: number; p50: number; p99: number; max: number } | null;
  /** Medians over the rounds of the CPU (µs) and allocation (bytes) per good answer. */
  cost: CostSummary | null;
}

/** The medians of CpuPerRequest's figures (per worker: the median of each rank), and allocation. */
export type CostSummary = CpuPerRequest & {
  allocMain: number | null;
  allocOthers: number | null;
};

function costSummary(runs: RunRecord[]): CostSummary | null {
  const cpus = runs.map((r) => r.cpu).filter((c) => c !== null);
  if (cpus.length === 0) return null;
  const med = (values: number[]) => (values.length > 0 ? spread(values).median : null);
  const allocs = runs.map((r) => r.alloc).filter((a) => a !== null);
  const ranks = Math.max(...cpus.map((c) => c.perWorker.length));
  return {
    total: med(cpus.map((c) => c.total))!,
    api: med(cpus.map((c) => c.api))!,
    workers: med(cpus.map((c) => c.workers))!,
    perWorker: Array.from({ length: ranks }, (_, i) => med(cpus.map((c) => c.perWorker[i] ?? 0))!),
    helpers: med(cpus.map((c) => c.helpers))!,
    redis: med(cpus.flatMap((c) => (c.redis === null ? [] : [c.redis]))),
    allocMain: med(allocs.map((a) => a.main)),
    allocOthers: med(allocs.map((a) => a.others)),
  };
}

export function spread(values: number[]): Spread {
  if (values.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN };
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]! };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
}

export function summarise(scenario: Scenario, runs: RunRecord[]): ScenarioSummary {
  const status: Record<string, number> = {};
  const badStatus: Record<string, number> = {};
  const timeoutMs: number[] = [];
  for (const r of runs) {
    addCounts(status, r.result.status);
    addCounts(badStatus, r.result.bad.status);
    timeoutMs.push(...r.result.timeoutLatencies);
  }
  timeoutMs.sort((a, b) => a - b);
  const goodP99 = runs.map((r) => r.result.goodP99).filter((v): v is number => v !== null);
  return {
    id: scenario.id,
    measures: scenario.measures,
    connections: scenario.connections,
    runs: runs.length,
    rps: spread(runs.map((r) => r.result.rps)),
    p50: spread(runs.map((r) => r.result.p50)),
    p99: spread(runs.map((r) => r.result.p99)),
    goodRps: spread(runs.map((r) => r.goodRps)),
    errors: runs.reduce((n, r) => n + r.result.errors, 0),
    non2xx: runs.reduce((n, r) => n + r.result.non2xx, 0),
    goodFailures: runs.reduce((n, r) => n + r.result.good.failed, 0),
    status,
    badStatus,
    goodP99: goodP99.length > 0 ? spread(goodP99) : null,
    timeouts:
      timeoutMs.length > 0
        ? {
            count: timeoutMs.length,
            p50: percentile(timeoutMs, 50),
            p99: percentile(timeoutMs, 99),
            max: timeoutMs[timeoutMs.length - 1]!,
          }
        : null,
    cost: costSummary(runs),
  };
}

/** The checks of a run that make the harness fail (not the targets: those are only reported). */
export function runProblems(scenario: Scenario, result: DriveResult): string[] {
  const problems: string[] = [];
  const where = `${scenario.id}:`;
  if (result.errors > 0) problems.push(`${where} ${result.errors} connection errors or client timeouts`);
  if (result.good.failed > 0) {
    problems.push(
      `${where} ${result.good.failed} good requests failed (${JSON.stringify(result.good.status)})`,
    );
  }
  if (result.good.answered + result.bad.answered === 0) problems.push(`${where} no answers at all`);
  const badOk = scenario.check === 'timeouts' ? ['504'] : ['504', '429', '503'];
  const odd = Object.keys(result.bad.status).filter((code) => !badOk.includes(code));
  if (odd.length > 0)
    problems.push(`${where} overdue runs answered ${odd.join(', ')} (expected ${badOk.join('/')})`);
  if (scenario.check === 'timeouts' && result.timeoutLatencies.length === 0) {
    problems.push(`${where} no TIMEOUT (504) answer at all`);
  }
  const expected = scenario.requests.find((r) => r.expectHeader)?.expectHeader;
  const hc = result.headerCheck;
  if (expected && hc.checked === 0) problems.push(`${where} no 2xx answer to check for ${expected.name}`);
  if (expected && hc.mismatched > 0) {
    problems.push(
      `${where} ${hc.mismatched} of ${hc.checked} answers without ${expected.name}: ${expected.startsWith}… (first: ${hc.firstMismatch ?? 'no such header'})`,
    );
  }
  return problems;
}
