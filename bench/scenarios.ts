import type { RequestSpec } from './drive.js';
import type { HubConfig } from './hub.js';
import type { BenchOptions } from './options.js';
import {
  CATASTROPHIC_BODY,
  MCP_HEADERS,
  mcpCallBody,
  REF_POST_BODY,
  SHORT_TEXT,
  sizedText,
  tokenCounterBody,
} from './payloads.js';

export type RefServer = 'ref-get' | 'ref-get-index' | 'ref-post';
export type Target = { kind: 'ref'; server: RefServer } | { kind: 'hub'; config: HubConfig };

/**
 * What counts as a broken run. `clean`: any error or non-2xx answer. `mix`: a good request not
 * answered 2xx, or a bad one answered anything but 504/429/503. `timeouts`: no 504 at all, or
 * any other answer.
 */
export type Check = 'clean' | 'mix' | 'timeouts';

export interface Scenario {
  id: string;
  /** One line for the report: what this scenario measures. */
  measures: string;
  target: Target;
  connections: number;
  requests: RequestSpec[];
  /** Sent before the measured run and discarded; good requests only, so no budget is spent. */
  warmup: RequestSpec[];
  /** Connections of another client beside the measured ones (the noisy neighbour). */
  neighbour?: { connections: number; requests: RequestSpec[] };
  check: Check;
}

const RUN_PATH = '/api/tools/run/';
const post = (path: string, body: string, kind: RequestSpec['kind'] = 'good'): RequestSpec => ({
  kind,
  method: 'POST',
  path,
  body,
});
const get = (path: string): RequestSpec => ({ kind: 'good', method: 'GET', path });

const REDIS: HubConfig = { redis: true, policy: 'fast' };
const SHORT_RUN = post(RUN_PATH, tokenCounterBody(SHORT_TEXT));
/**
 * The same run against a hub that caches token-counter's results: the warm-up stores the
 * result, and every measured answer must say it came from the cache.
 */
const SHORT_RUN_HIT: RequestSpec = {
  ...SHORT_RUN,
  expectHeader: { name: 'Cache-Status', startsWith: 'toolhub; hit' },
};

/** Connections for the large inputs: 64 × 512 KiB in flight would measure the queue, not the work. */
const BIG_CONNECTIONS = 8;
/**
 * Overdue runs in flight: one connection measures the time from request to TIMEOUT answer
 * without a queue wait in it (held runs are bounded by the spare and the overflow workers).
 */
const TIMEOUT_CONNECTIONS = 1;
/** Connections of the noisy neighbour (about 6 % of the default 64). */
const NOISY_CONNECTIONS = 4;

function hub(
  id: string,
  measures: string,
  config: HubConfig,
  requests: RequestSpec[],
  connections: number,
  check: Check = 'clean',
): Scenario {
  const warmup = requests.filter((r) => r.kind === 'good');
  return {
    id,
    measures,
    target: { kind: 'hub', config },
    connections,
    requests,
    warmup: warmup.length > 0 ? warmup : [SHORT_RUN],
    check,
  };
}

/** The scenario list in the order of one round; rounds repeat it, so A B A B ... interleave. */
export function allScenarios(opts: BenchOptions): Scenario[] {
  const c = opts.connections;
  const big = Math.min(BIG_CONNECTIONS, c);
  const sized = (kib: number, conns: number) =>
    hub(
      `size-${kib}k`,
      `token-counter on a ${kib} KiB text, Redis limiter, ${conns} connections: how cost grows with work`,
      REDIS,
      [post(RUN_PATH, tokenCounterBody(sizedText(kib * 1024)))],
      conns,
    );
  const pool = (threads: number) =>
    hub(
      `pool-${threads}`,
      `the Redis runtime POST with POOL_THREADS=${threads}`,
      { ...REDIS, poolThreads: threads },
      [SHORT_RUN],
      c,
    );
  // The noisy client has connections of its own: a client whose runs wait their turn under
  // its per-client cap must not block another client's connections (as one shared cycle would).
  const noisy = (id: string, measures: string, neighbour: RequestSpec): Scenario => ({
    ...hub(id, measures, REDIS, [SHORT_RUN], c - NOISY_CONNECTIONS, 'mix'),
    neighbour: { connections: NOISY_CONNECTIONS, requests: [neighbour] },
  });
  const ref = (id: RefServer, measures: string, request: RequestSpec): Scenario => ({
    id,
    measures,
    target: { kind: 'ref', server: id },
    connections: c,
    requests: [request],
    warmup: [request],
    check: 'clean',
  });

  return [
    ref('ref-get', 'bare fastify, GET / answering a small JSON: the ceiling of a GET here', get('/')),
    hub(
      'hub-index',
      'GET /api/skills-index.json (built once, ETag): a static hub answer',
      REDIS,
      [get('/api/skills-index.json')],
      c,
    ),
    ref(
      'ref-get-index',
      "bare fastify, GET / answering the hub's own skills-index bytes: what that payload alone costs (a diagnostic, no target)",
      get('/'),
    ),
    ref(
      'ref-post',
      'fastify POST / with a 208-byte JSON body, body + response schema: the ceiling of a JSON API here',
      post('/', REF_POST_BODY),
    ),
    hub(
      'hub-run-redis',
      'runtime POST, token-counter on 40 chars: Redis limiter, metrics, default pool (the headline)',
      REDIS,
      [SHORT_RUN],
      c,
    ),
    hub(
      'hub-run-cache-hit',
      "the same runtime POST with token-counter's result cache on (cacheTtlSec 300, Redis): after the warm-up every answer is a hit from the in-process layer, no worker (each checked: `Cache-Status: toolhub; hit`)",
      { redis: true, policy: 'cached' },
      [SHORT_RUN_HIT],
      c,
    ),
    hub(
      'hub-run-quota',
      "the same runtime POST with token-counter's quotas per UTC day and month on (too high to refuse): what counting and checking them costs a run, in the same Redis call",
      { redis: true, policy: 'quota' },
      [SHORT_RUN],
      c,
    ),
    hub(
      'hub-mcp-call',
      "the same run as an MCP tools/call (2025-11-25 client, stateless), message limit on: what an agent's call costs beside REST",
      REDIS,
      [{ ...post('/mcp', mcpCallBody(SHORT_TEXT)), headers: MCP_HEADERS }],
      c,
    ),
    hub(
      'hub-run-memory',
      'the same with the in-process limiter (no REDIS_URL)',
      { ...REDIS, redis: false },
      [SHORT_RUN],
      c,
    ),
    sized(1, c),
    sized(64, big),
    sized(512, big),
    pool(1),
    pool(2),
    pool(4),
    noisy(
      'noisy-base',
      'the noisy-neighbour load with the neighbour sending good runs too (the baseline)',
      SHORT_RUN,
    ),
    noisy(
      'noisy-5pct',
      `${c - NOISY_CONNECTIONS} connections of good runs beside ${NOISY_CONNECTIONS} connections of a noisy client sending only catastrophic regexes (default regex-tester policy): good req/s and good failures`,
      post(RUN_PATH, CATASTROPHIC_BODY, 'bad'),
    ),
    hub(
      'timeout-latency',
      `only overdue runs (catastrophic regex, timeoutMs 1000), ${TIMEOUT_CONNECTIONS} connections, POOL_THREADS=2: time to the TIMEOUT answer`,
      { redis: true, policy: 'timeouts', poolThreads: 2 },
      [post(RUN_PATH, CATASTROPHIC_BODY, 'bad')],
      TIMEOUT_CONNECTIONS,
      'timeouts',
    ),
  ];
}

/**
 * A scenario as the JSON results keep it: request bodies of the big inputs would weigh megabytes,
 * so long bodies are cut, and repeated requests of a cycle are counted instead of listed.
 */
export function describeScenario(s: Scenario) {
  const requests: {
    count: number;
    kind: string;
    method: string;
    path: string;
    bodyBytes: number;
    body?: string;
    expectHeader?: RequestSpec['expectHeader'];
  }[] = [];
  for (const r of s.requests) {
    const body =
      r.body === undefined ? undefined : r.body.length <= 300 ? r.body : `${r.body.slice(0, 120)}…`;
    const same = requests.find((q) => q.kind === r.kind && q.path === r.path && q.body === body);
    if (same) same.count++;
    else
      requests.push({
        count: 1,
        kind: r.kind,
        method: r.method,
        path: r.path,
        bodyBytes: Buffer.byteLength(r.body ?? ''),
        body,
        ...(r.expectHeader ? { expectHeader: r.expectHeader } : {}),
      });
  }
  return {
    id: s.id,
    measures: s.measures,
    target: s.target,
    connections: s.connections,
    check: s.check,
    requests,
  };
}
