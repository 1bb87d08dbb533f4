import type { BootFigures } from './boot.js';
import { REGEX_TIMEOUT_MS } from './payloads.js';
import type { RunRecord, ScenarioSummary } from './stats.js';
import { spread } from './stats.js';

/** One target of issue 5, as a number against a threshold. */
export interface Ratio {
  id: string;
  label: string;
  value: number | null;
  direction: '>=' | '<=';
  target: number;
  /** null: not measured in this run (e.g. no --soak, or --only). */
  met: boolean | null;
  /** The figures behind the value, for the report. */
  detail: string;
  /** The same ratio per round (rounds pair A with B run next to it), when it has one. */
  perRound: { min: number; max: number } | null;
}

export interface SoakFigures {
  seconds: number;
  rss30s: number;
  rssEnd: number;
}

const P99_LIMIT_MS = 10;
const TIMEOUT_SLACK_MS = 250;
/** Boot to ready on this machine (docs/operations.md, "Boot"). */
const BOOT_LIMIT_MS = 1500;

function pairRatio(runs: RunRecord[], a: string, b: string, pick: (r: RunRecord) => number) {
  const values: number[] = [];
  for (const ra of runs.filter((r) => r.scenario === a)) {
    const rb = runs.find((r) => r.scenario === b && r.round === ra.round);
    if (rb && pick(rb) > 0) values.push(pick(ra) / pick(rb));
  }
  if (values.length === 0) return null;
  const s = spread(values);
  return { min: s.min, max: s.max };
}

function ratio(base: Omit<Ratio, 'met'>): Ratio {
  const { value, direction, target } = base;
  const met =
    value === null || Number.isNaN(value) ? null : direction === '>=' ? value >= target : value <= target;
  return { ...base, value: value === null || Number.isNaN(value) ? null : value, met };
}

export function computeRatios(
  summaries: Map<string, ScenarioSummary>,
  runs: RunRecord[],
  soak: SoakFigures | null,
  boot: BootFigures | null = null,
): Ratio[] {
  const s = (id: string) => summaries.get(id);
  const div = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || b === 0 ? null : a / b;
  const hubRun = s('hub-run-redis');
  const cacheHit = s('hub-run-cache-hit');
  const quota = s('hub-run-quota');
  const mcpCall = s('hub-mcp-call');
  const refPost = s('ref-post');
  const index = s('hub-index');
  const refGet = s('ref-get');
  const refIndex = s('ref-get-index');
  const noisy = s('noisy-5pct');
  const calm = s('noisy-base');
  const timeouts = s('timeout-latency')?.timeouts ?? null;
  const limitMs = REGEX_TIMEOUT_MS + TIMEOUT_SLACK_MS;
  const fmt = (n: number | undefined, digits = 0) => (n === undefined ? 'n/a' : n.toFixed(digits));
  const out: Ratio[] = [
    ratio({
      id: 'runtime-post',
      label: 'runtime POST (hub-run-redis) / ref-post, req/s',
      value: div(hubRun?.rps.median, refPost?.rps.median),
      direction: '>=',
      target: 0.5,
      detail: `${fmt(hubRun?.rps.median)} / ${fmt(refPost?.rps.median)} req/s`,
      perRound: pairRatio(runs, 'hub-run-redis', 'ref-post', (r) => r.result.rps),
    }),
    ratio({
      id: 'cache-hit',
      label: 'runtime POST, cache hit (hub-run-cache-hit) / ref-post, req/s',
      value: div(cacheHit?.rps.median, refPost?.rps.median),
      direction: '>=',
      target: 0.6,
      detail: `${fmt(cacheHit?.rps.median)} / ${fmt(refPost?.rps.median)} req/s; CPU per answer ${fmt(cacheHit?.cost?.total)} / ${fmt(refPost?.cost?.total)} µs (a miss: ${fmt(hubRun?.cost?.total)} µs)`,
      perRound: pairRatio(runs, 'hub-run-cache-hit', 'ref-post', (r) => r.result.rps),
    }),
    ratio({
      id: 'quota-check',
      label: 'runtime POST with quotas on (hub-run-quota) / without (hub-run-redis), req/s',
      value: div(quota?.rps.median, hubRun?.rps.median),
      direction: '>=',
      target: 0.95,
      detail: `${fmt(quota?.rps.median)} / ${fmt(hubRun?.rps.median)} req/s; Redis CPU per answer ${fmt(quota?.cost?.redis ?? undefined, 1)} / ${fmt(hubRun?.cost?.redis ?? undefined, 1)} µs, API ${fmt(quota?.cost?.api)} / ${fmt(hubRun?.cost?.api)} µs`,
      perRound: pairRatio(runs, 'hub-run-quota', 'hub-run-redis', (r) => r.result.rps),
    }),
    ratio({
      id: 'runtime-post-p99',
      label: `runtime POST p99 / ${P99_LIMIT_MS} ms (at ${hubRun?.connections ?? '?'} connections)`,
      value: div(hubRun?.p99.median, P99_LIMIT_MS),
      direction: '<=',
      target: 1,
      detail: `p99 ${fmt(hubRun?.p99.median, 1)} ms`,
      perRound: null,
    }),
    ratio({
      id: 'index',
      label: 'hub-index / ref-get, req/s',
      value: div(index?.rps.median, refGet?.rps.median),
      direction: '>=',
      target: 0.9,
      detail: `${fmt(index?.rps.median)} / ${fmt(refGet?.rps.median)} req/s`,
      perRound: pairRatio(runs, 'hub-index', 'ref-get', (r) => r.result.rps),
    }),
    ratio({
      id: 'index-same-bytes',
      label: 'hub-index / ref-get-index (fastify serving the same bytes), req/s',
      value: div(index?.rps.median, refIndex?.rps.median),
      direction: '>=',
      target: 0.9,
      detail: `${fmt(index?.rps.median)} / ${fmt(refIndex?.rps.median)} req/s`,
      perRound: pairRatio(runs, 'hub-index', 'ref-get-index', (r) => r.result.rps),
    }),
    ratio({
      id: 'mcp-call',
      label: 'MCP tools/call (hub-mcp-call) / runtime POST (hub-run-redis), req/s',
      value: div(mcpCall?.rps.median, hubRun?.rps.median),
      direction: '>=',
      target: 0.6,
      detail: `${fmt(mcpCall?.rps.median)} / ${fmt(hubRun?.rps.median)} req/s; CPU per answer ${fmt(mcpCall?.cost?.total)} / ${fmt(hubRun?.cost?.total)} µs`,
      perRound: pairRatio(runs, 'hub-mcp-call', 'hub-run-redis', (r) => r.result.rps),
    }),
    ratio({
      id: 'cpu-per-request',
      label: 'CPU per answer, ref-post / hub-run-redis (hub + Redis)',
      value: div(refPost?.cost?.total, hubRun?.cost?.total),
      direction: '>=',
      target: 0.35,
      detail: `${fmt(refPost?.cost?.total)} / ${fmt(hubRun?.cost?.total)} µs (hub: API ${fmt(hubRun?.cost?.api)}, workers ${fmt(hubRun?.cost?.workers)}, helpers ${fmt(hubRun?.cost?.helpers)}, Redis ${fmt(hubRun?.cost?.redis ?? undefined)})`,
      perRound: pairRatio(runs, 'ref-post', 'hub-run-redis', (r) => r.cpu?.total ?? 0),
    }),
  ];
  // Two conditions, one row: the ratio and "no good request fails".
  const noisyRatio = ratio({
    id: 'noisy',
    label: 'good req/s with 5% catastrophic / without',
    value: div(noisy?.goodRps.median, calm?.goodRps.median),
    direction: '>=',
    target: 0.7,
    detail: `${fmt(noisy?.goodRps.median)} / ${fmt(calm?.goodRps.median)} good req/s; good failures ${
      noisy ? noisy.goodFailures + (calm?.goodFailures ?? 0) : 'n/a'
    }`,
    perRound: pairRatio(runs, 'noisy-5pct', 'noisy-base', (r) => r.goodRps),
  });
  if (noisyRatio.met === true && (noisy?.goodFailures ?? 0) + (calm?.goodFailures ?? 0) > 0)
    noisyRatio.met = false;
  out.push(noisyRatio);
  out.push(
    ratio({
      id: 'timeout',
      label: `TIMEOUT answer p99 / (timeoutMs + ${TIMEOUT_SLACK_MS} ms)`,
      value: timeouts ? timeouts.p99 / limitMs : null,
      direction: '<=',
      target: 1,
      detail: timeouts
        ? `p99 ${timeouts.p99.toFixed(0)} ms of ${timeouts.count} TIMEOUT answers (p50 ${timeouts.p50.toFixed(0)}, max ${timeouts.max.toFixed(0)}); limit ${limitMs} ms`
        : 'no TIMEOUT answers',
      perRound: null,
    }),
  );
  out.push(
    ratio({
      id: 'soak',
      label: 'RSS after the soak / after 30 s',
      value: soak ? soak.rssEnd / soak.rss30s : null,
      direction: '<=',
      target: 1.1,
      detail: soak
        ? `${(soak.rss30s / 2 ** 20).toFixed(0)} MiB at 30 s, ${(soak.rssEnd / 2 ** 20).toFixed(0)} MiB at ${soak.seconds} s`
        : 'not run (use --soak)',
      perRound: null,
    }),
  );
  out.push(
    ratio({
      id: 'boot',
      label: `hub boot to ready / ${BOOT_LIMIT_MS} ms`,
      value: boot ? boot.hubMs.median / BOOT_LIMIT_MS : null,
      direction: '<=',
      target: 1,
      detail: boot
        ? `hub ${boot.hubMs.median.toFixed(0)} ms (bare fastify listening: ${boot.bareMs.median.toFixed(0)} ms); idle RSS ${(boot.hubRss.median / 2 ** 20).toFixed(0)} MiB (bare fastify ${(boot.bareRss.median / 2 ** 20).toFixed(0)} MiB), medians of ${boot.boots}`
        : 'not run',
      perRound: boot ? { min: boot.hubMs.min / BOOT_LIMIT_MS, max: boot.hubMs.max / BOOT_LIMIT_MS } : null,
    }),
  );
  return out;
}
