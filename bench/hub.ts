import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort, type ServerProcess, startServer, stopServer } from './processes.js';

/** One configuration of the hub; each scenario run gets its own process with it. */
export interface HubConfig {
  redis: boolean;
  /** POOL_THREADS; absent: the hub's default (CPU count, 1..4; shared out among HUB_PROCESSES). */
  poolThreads?: number;
  /** HUB_PROCESSES; absent: one. */
  processes?: number;
  /**
   * `fast`: token-counter's limits raised so they never reject (the limiter still runs every
   * check), every other tool on its default policy. `timeouts`: also regex-tester's rate limit
   * and budget raised, so an overdue-runs scenario collects TIMEOUT answers rather than 429s;
   * its timeoutMs and in-flight caps stay the defaults. `cached`: `fast` with token-counter's
   * result cache on (`cacheTtlSec` 300), so a repeated input is answered from the cache.
   * `quota`: `fast` with token-counter's quotas per day and month set, too high to refuse, so
   * every run's decision also counts and checks them (in the same script call). `pipelines`:
   * the tools of the example pipelines (pipelines/examples.yaml) never reject.
   */
  policy: 'fast' | 'timeouts' | 'cached' | 'quota' | 'pipelines';
  /** Further settings (the jobs stage's JOBS_CONCURRENCY). */
  env?: Record<string, string>;
}

const NEVER_REJECT = {
  limit: 100_000_000,
  burst: 0,
  computeBudgetMs: 1e12,
  maxInFlight: 100_000,
  maxInFlightPerClient: 100_000,
};

/** Seconds a cached result lives: far longer than a sitting, so every repeat is a hit. */
const CACHE_TTL_SEC = 300;

const POLICIES: Record<HubConfig['policy'], object> = {
  fast: { tools: { 'token-counter': NEVER_REJECT } },
  cached: { tools: { 'token-counter': { ...NEVER_REJECT, cacheTtlSec: CACHE_TTL_SEC } } },
  quota: {
    tools: {
      'token-counter': {
        ...NEVER_REJECT,
        quota: { runsPerDay: 1e12, computeMsPerDay: 1e12, runsPerMonth: 1e12, computeMsPerMonth: 1e12 },
      },
    },
  },
  pipelines: {
    tools: Object.fromEntries(
      [
        'format-detective',
        'schema-generator',
        'structured-output-validator',
        'html-markdown',
        'token-counter',
      ].map((id) => [id, NEVER_REJECT]),
    ),
  },
  timeouts: {
    tools: {
      'token-counter': NEVER_REJECT,
      'regex-tester': { limit: 100_000_000, burst: 0, computeBudgetMs: 1e12 },
    },
  },
};

export interface HubContext {
  serverJs: string;
  /** Folder for the policy files (a temporary directory of this run). */
  dir: string;
  redisUrl: string;
  /** Unique per harness run; every hub process adds a sequence number to it. */
  runId: string;
  /** A Redis Cluster's nodes (`host:port,…`): the hubs use it instead of `redisUrl` (bench/ab.ts --cluster). */
  clusterNodes?: string;
  /** Variables this side's hubs get on top of each configuration's (bench/ab.ts --a-env, --b-env). */
  env?: Record<string, string>;
}

let sequence = 0;

export async function writePolicyFiles(dir: string): Promise<void> {
  for (const [name, body] of Object.entries(POLICIES)) {
    await writeFile(join(dir, `policy-${name}.json`), JSON.stringify(body));
  }
}

/**
 * The hub's environment from scratch rather than from process.env: a REDIS_URL or POOL_THREADS
 * in the caller's shell must not leak into the "memory" or "default pool" configurations.
 */
function hubEnv(config: HubConfig, ctx: HubContext, port: number): Record<string, string> {
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    POLICY_FILE: join(ctx.dir, `policy-${config.policy}.json`),
    // Distinct keys per process: runs never share rate-limit windows, and the shared Redis
    // is never flushed (keys expire with their windows).
    REDIS_PREFIX: `toolhub-bench:${ctx.runId}:${++sequence}:`,
    // Counted on every message, never refusing: the MCP scenario measures the check's cost.
    MCP_MESSAGE_LIMIT: '100000000',
  };
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  if (config.redis && ctx.clusterNodes) env.REDIS_CLUSTER_NODES = ctx.clusterNodes;
  else if (config.redis) env.REDIS_URL = ctx.redisUrl;
  if (config.poolThreads !== undefined) env.POOL_THREADS = String(config.poolThreads);
  if (config.processes !== undefined) env.HUB_PROCESSES = String(config.processes);
  return { ...env, ...config.env, ...ctx.env };
}

export function describeHub(config: HubConfig): string {
  const pool = config.poolThreads === undefined ? 'default pool' : `POOL_THREADS=${config.poolThreads}`;
  const processes = config.processes === undefined ? '' : `, HUB_PROCESSES=${config.processes}`;
  return `hub (${config.redis ? 'Redis' : 'in-process'} limiter, ${pool}${processes}, policy ${config.policy})`;
}

export async function startHub(config: HubConfig, ctx: HubContext, pollMs?: number): Promise<ServerProcess> {
  // The probed port may be taken by someone else before the hub binds it: try once more.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startServer({
        name: describeHub(config),
        args: [ctx.serverJs],
        env: hubEnv(config, ctx, port),
        port,
        readyPath: '/readyz',
        ...(pollMs !== undefined ? { pollMs } : {}),
        // A Redis configuration that silently fell back would measure the wrong thing.
        readyCheck: (body) => {
          const store = (JSON.parse(body) as { limiterStore?: unknown }).limiterStore;
          const want = config.redis ? 'redis' : 'memory';
          return store === undefined || store === want
            ? null
            : `limiter store is ${String(store)}, not ${want}`;
        },
      });
    } catch (error) {
      if (attempt >= 2 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

/** The exact bytes a hub answers on GET /api/skills-index.json (for the ref-get-index server). */
export async function hubIndexBytes(ctx: HubContext): Promise<Buffer> {
  const server = await startHub({ redis: false, policy: 'fast' }, ctx);
  try {
    const res = await fetch(`${server.base}/api/skills-index.json`);
    if (!res.ok) throw new Error(`skills index answered ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  } finally {
    await stopServer(server);
  }
}
