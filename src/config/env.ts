import { availableParallelism } from 'node:os';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { ownAjv } from '../ajv.js';

/**
 * The environment, checked once at boot by one ajv schema (fastify/demo's env plugin).
 * A bad value stops the boot with a message naming the variable. The configuration table
 * of docs/operations.md is generated from it (test/docs.test.ts checks it). The schema is a
 * plain JSON Schema object: a variable with a default is listed in `required` (ajv fills the
 * default in before it checks), one without is optional, and EnvConfig below follows from that.
 */
const poolDefault = Math.max(1, Math.min(availableParallelism(), 4));

export const ENV_SCHEMA = {
  type: 'object',
  required: [
    'PORT',
    'HOST',
    'REDIS_PREFIX',
    'REDIS_COMMAND_TIMEOUT_MS',
    'LOG_LEVEL',
    'TRUST_PROXY',
    'RUNTIME_ENABLED',
    'DISABLED_TOOLS',
    'POOL_THREADS',
    'POOL_OVERFLOW_THREADS',
    'POOL_MAX_QUEUE',
    'QUEUE_WAIT_MS',
    'CAP_WAIT_MS',
    'WORKER_HEAP_MB',
    'RESULT_MAX_BYTES',
    'BODY_LIMIT_BYTES',
    'SHUTDOWN_TIMEOUT_MS',
    'HUB_PROCESSES',
    'PRESSURE_MAX_EVENT_LOOP_DELAY_MS',
    'PRESSURE_MAX_EVENT_LOOP_UTILIZATION',
    'PRESSURE_MAX_HEAP_USED_BYTES',
    'PRESSURE_MAX_RSS_BYTES',
    'MEMORY_BUDGET_BYTES',
    'MEMORY_CLIENT_SHARE',
    'REQUEST_TIMEOUT_MS',
    'MAX_CONNECTIONS',
    'JUNK_LIMIT',
    'BATCH_MAX_RUNS',
    'CACHE_SHARED',
    'CACHE_MAX_ENTRY_BYTES',
    'CACHE_MEMORY_BYTES',
    'MCP_ALLOWED_HOSTS',
    'MCP_MESSAGE_LIMIT',
    'MCP_BATCH_MAX_MESSAGES',
    'MCP_BATCH_MAX_ANSWER_BYTES',
    'PIPELINES_FILE',
    'PIPELINE_TIMEOUT_MS',
    'EXTRA_TOOL_DIRS',
    'TOOL_PACKAGES',
    'TOOL_PACKAGES_DIR',
    'TOOL_MEMORY_MAX_MB',
    'TOOL_NETWORK',
    'JOBS_CONCURRENCY',
    'JOBS_RESULT_TTL_SEC',
    'JOBS_BATCH_MAX_RUNS',
    'JOBS_RESULT_MAX_BYTES',
    'JOBS_LIMIT_WAIT_SEC',
    'JOBS_LOCK_MS',
    'JOBS_REQUEST_LIMIT',
    'IDEMPOTENCY_TTL_SEC',
    'WEBHOOK_ALLOW_PRIVATE_ADDRESSES',
    'WEBHOOK_MAX_ATTEMPTS',
    'WEBHOOK_TIMEOUT_MS',
    'WEBHOOK_RETRY_BASE_MS',
  ],
  properties: {
    PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      default: 8080,
      description: 'TCP port to listen on',
    },
    HOST: { type: 'string', minLength: 1, default: '0.0.0.0', description: 'Address to listen on' },
    REDIS_URL: {
      type: 'string',
      pattern: '^rediss?://',
      description:
        "Redis for the limiter's store, where every instance counts; unset: the in-process store (one instance only)",
    },
    REDIS_CLUSTER_NODES: {
      type: 'string',
      minLength: 1,
      description: 'Redis Cluster seed nodes (comma-separated host:port) instead of REDIS_URL',
    },
    REDIS_SENTINELS: {
      type: 'string',
      minLength: 1,
      description:
        'Redis Sentinels (comma-separated host:port) instead of REDIS_URL; with REDIS_SENTINEL_NAME',
    },
    REDIS_SENTINEL_NAME: {
      type: 'string',
      minLength: 1,
      description: 'The master group name the Sentinels watch',
    },
    REDIS_PREFIX: {
      type: 'string',
      default: 'toolhub:',
      description: 'Prefix of every Redis key the hub writes',
    },
    REDIS_COMMAND_TIMEOUT_MS: {
      type: 'integer',
      minimum: 10,
      maximum: 10000,
      default: 200,
      description:
        'A limiter command slower than this falls back to the in-process insurance store; a result cache command slower than this is a miss or a write skipped',
    },
    LOG_LEVEL: {
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: 'info',
      description: 'pino log level',
    },
    TRUST_PROXY: {
      type: 'string',
      default: 'false',
      description:
        'false: the client is the TCP peer; true: trust X-Forwarded-For; or a comma list of trusted proxy addresses/CIDRs, or a hop count',
    },
    POLICY_FILE: {
      type: 'string',
      minLength: 1,
      description: 'JSON or YAML file of per-tool policy overrides and switches',
    },
    RUNTIME_ENABLED: {
      type: 'boolean',
      default: true,
      description: 'false switches every tool run off (RUNTIME_DISABLED)',
    },
    DISABLED_TOOLS: {
      type: 'string',
      default: '',
      description: 'Comma-separated toolIds switched off (TOOL_DISABLED)',
    },
    POOL_THREADS: {
      type: 'integer',
      minimum: 1,
      maximum: 64,
      default: poolDefault,
      description:
        'Batches of runs at normal priority at once (active workers; plus one warm spare). Default: CPU count, 1..4',
    },
    POOL_OVERFLOW_THREADS: {
      type: 'integer',
      minimum: 0,
      maximum: 256,
      default: 4,
      description:
        'Extra worker threads per lane for held runs (runs past 100 ms, off the active workers), beyond the active workers and one warm spare',
    },
    POOL_MAX_QUEUE: {
      type: 'integer',
      minimum: 0,
      maximum: 100000,
      default: 256,
      description: 'Runs that may wait for a worker; past it: CONCURRENCY_LIMIT (503)',
    },
    QUEUE_WAIT_MS: {
      type: 'integer',
      minimum: 1,
      maximum: 600000,
      default: 10000,
      description: 'Longest wait of a run for a worker; past it: CONCURRENCY_LIMIT (503)',
    },
    CAP_WAIT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 10000,
      description:
        'Longest wait of a run for a slot under the per-client or per-tool cap; past it: CONCURRENCY_LIMIT (429). 0: refuse at once',
    },
    WORKER_HEAP_MB: {
      type: 'integer',
      minimum: 16,
      maximum: 16384,
      default: 256,
      description: 'Old-generation heap limit of each worker; a run past it: BUDGET_EXCEEDED',
    },
    RESULT_MAX_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 268435456,
      default: 8388608,
      description: 'Largest serialised result of one run; past it: BUDGET_EXCEEDED',
    },
    BODY_LIMIT_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 268435456,
      default: 4194304,
      description: 'Hard cap of an HTTP request body; past it: INPUT_TOO_LARGE',
    },
    SHUTDOWN_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 15000,
      description: 'On SIGTERM, longest wait for in-flight runs before the process exits',
    },
    HUB_PROCESSES: {
      type: 'string',
      pattern: '^(auto|[1-9][0-9]?)$',
      default: '1',
      description:
        'API processes on one port (node:cluster), 1..99, or `auto`: one per two available CPUs. More than 1 needs Redis; each gets POOL_THREADS = CPUs / processes - 1 (1..4) unless set (docs/operations.md, "Every core of the box")',
    },
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 600000,
      default: 1000,
      description: 'Shed runs (503 CONCURRENCY_LIMIT) while the event loop lags more than this; 0: off',
    },
    PRESSURE_MAX_EVENT_LOOP_UTILIZATION: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0,
      description: 'Shed runs while the API thread is busier than this (0..1); 0: off',
    },
    PRESSURE_MAX_HEAP_USED_BYTES: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: "Shed runs while the API thread's heap is above this; 0: 90% of its heap limit",
    },
    PRESSURE_MAX_RSS_BYTES: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description: 'Shed runs while the resident memory of the process is above this; 0: off',
    },
    MEMORY_BUDGET_BYTES: {
      type: 'integer',
      minimum: 0,
      default: 0,
      description:
        'Memory work in flight may reserve together (a request: 6 bytes per byte of body, results past twice the body added as they come; a run: 352 bytes per byte of input); past it: CONCURRENCY_LIMIT (503). 0: 90% of PRESSURE_MAX_RSS_BYTES less the resident memory at rest, off when that is 0',
    },
    MEMORY_CLIENT_SHARE: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 1,
      default: 0.5,
      description:
        'Share of the memory budget one client may reserve for its requests, and as much for its runs; past it: CONCURRENCY_LIMIT (429)',
    },
    PUBLIC_BASE_URL: {
      type: 'string',
      pattern: '^https?://[^\\s]+[^/]$',
      description:
        'Public base address of the hub in descriptors and OpenAPI (default: http://localhost:PORT)',
    },
    CORS_ORIGINS: {
      type: 'string',
      pattern:
        '^\\s*(\\*|https?://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?(\\s*,\\s*https?://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?)*)?\\s*$',
      description:
        'Origins whose browser pages may call the hub (CORS), comma-separated (https://app.example.com), or * for any; preflight OPTIONS is answered. Unset: no CORS headers, OPTIONS is 405',
    },
    REQUEST_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 30000,
      description:
        'Longest time to receive a whole request (headers and body); a stalled upload is cut with 408 TIMEOUT',
    },
    MAX_CONNECTIONS: {
      type: 'integer',
      minimum: 0,
      maximum: 1000000,
      default: 0,
      description:
        'Open client connections at most; more are refused at accept. 0: three quarters of the file-descriptor limit',
    },
    JUNK_LIMIT: {
      type: 'integer',
      minimum: 0,
      maximum: 1000000,
      default: 60,
      description:
        'Requests per minute per client refused before the rate limiter (400, 401, 404, 405, 408, 413, 415, 417, 431) before that client gets 429 at once; 0: off',
    },
    REFUSAL_LIMIT: {
      type: 'integer',
      minimum: 0,
      maximum: 1000000,
      description:
        'Deprecated: the former name of JUNK_LIMIT, read only while JUNK_LIMIT is unset (a warn line at boot says so)',
    },
    API_KEYS_FILE: {
      type: 'string',
      minLength: 1,
      description:
        'JSON file of API keys (SHA-256 hashes) and tiers; set: every tool surface needs a key (re-read on SIGHUP); unset: no keys',
    },
    BATCH_MAX_RUNS: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 20,
      description: 'Most runs in one POST /api/tools/batch/',
    },
    CACHE_SHARED: {
      type: 'boolean',
      default: true,
      description:
        "With a Redis for the cache (CACHE_REDIS_URL, or the limiter's when it cannot evict): share cached results between instances through it; false: each instance caches in its own memory only",
    },
    CACHE_REDIS_URL: {
      type: 'string',
      pattern: '^rediss?://',
      description:
        'The result cache\'s own Redis (maxmemory with allkeys-lru); unset: the limiter\'s Redis, only while its maxmemory-policy is noeviction (docs/operations.md, "Result cache")',
    },
    CACHE_REDIS_CLUSTER_NODES: {
      type: 'string',
      minLength: 1,
      description:
        "The result cache's own Redis Cluster (comma-separated host:port) instead of CACHE_REDIS_URL",
    },
    CACHE_REDIS_SENTINELS: {
      type: 'string',
      minLength: 1,
      description:
        "The result cache's own Redis behind Sentinels (comma-separated host:port) instead of CACHE_REDIS_URL; with CACHE_REDIS_SENTINEL_NAME",
    },
    CACHE_REDIS_SENTINEL_NAME: {
      type: 'string',
      minLength: 1,
      description: "The master group name of the result cache's Redis the Sentinels watch",
    },
    CACHE_MAX_ENTRY_BYTES: {
      type: 'integer',
      minimum: 0,
      maximum: 268435456,
      default: 262144,
      description:
        'Largest result (UTF-8 bytes) the result cache stores; larger results are computed each time',
    },
    CACHE_MEMORY_BYTES: {
      type: 'integer',
      minimum: 0,
      maximum: 17179869184,
      default: 33554432,
      description: "Bound of the result cache's in-process layer (least recently used out first); 0: none",
    },
    MCP_ALLOWED_HOSTS: {
      type: 'string',
      default: '',
      description:
        'Host names /mcp accepts in Host and Origin (DNS-rebinding protection), comma-separated; default: loopback, the PUBLIC_BASE_URL host and HOST; * switches the check off',
    },
    MCP_MESSAGE_LIMIT: {
      type: 'integer',
      minimum: 0,
      maximum: 100000000,
      default: 1200,
      description:
        'JSON-RPC messages per minute per client on /mcp, every method (a message array counts each message), counted in Redis for every instance; past it 429 RATE_LIMITED with Retry-After; 0: off',
    },
    MCP_BATCH_MAX_MESSAGES: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 20,
      description:
        'Most messages in one JSON-RPC message array (a JSON-RPC batch) on /mcp; a longer array is refused before any work',
    },
    MCP_BATCH_MAX_ANSWER_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 1073741824,
      default: 1048576,
      description:
        'Most bytes of listings and resources one /mcp message array may ask for (counted before any work); tools/call answers are bounded by RESULT_MAX_BYTES each',
    },
    PIPELINES_FILE: {
      type: 'string',
      default: '',
      description:
        'YAML or JSON file of named pipelines, each served like a tool (re-read on SIGHUP; a bad file keeps the old set); empty: none',
    },
    PIPELINE_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 30000,
      description:
        "Most wall time of one pipeline: a step starts only inside it, and runs under what is left of it (or its tool's timeoutMs, the smaller)",
    },
    EXTRA_TOOL_DIRS: {
      type: 'string',
      default: '',
      description: 'Comma-separated extra folders scanned for tool modules (plug-ins, test fixtures)',
    },
    TOOL_PACKAGES: {
      type: 'string',
      default: '',
      description:
        'Comma-separated npm packages of tools, each with a `toolhub` block in its package.json (docs/tool-packages.md); loaded at boot only',
    },
    TOOL_PACKAGES_DIR: {
      type: 'string',
      default: '',
      description:
        "The folder whose node_modules holds the TOOL_PACKAGES (a mounted volume); empty: the hub's own root",
    },
    TOOL_MEMORY_MAX_MB: {
      type: 'integer',
      minimum: 0,
      maximum: 16384,
      default: 0,
      description:
        "The most memory a package's tool may ask for (toolhub.needs.memoryMb): its workers' heap cap; 0: WORKER_HEAP_MB. A run past its tool's cap: BUDGET_EXCEEDED, reason memory",
    },
    TOOL_NETWORK: {
      type: 'string',
      default: '',
      description:
        'Comma-separated ids of the tools that may use the network, where their manifest asks for it (toolhub.needs.network); every other tool is refused it',
    },
    JOBS_CONCURRENCY: {
      type: 'integer',
      minimum: 0,
      maximum: 256,
      default: 4,
      description:
        'Jobs (POST /api/jobs/) each instance runs at once, taken from the shared queue in Redis; 0: this instance takes none (it still accepts and answers them)',
    },
    JOBS_RESULT_TTL_SEC: {
      type: 'integer',
      minimum: 60,
      maximum: 2592000,
      default: 86400,
      description: 'How long a finished job, its answer and its webhook attempts are kept',
    },
    JOBS_BATCH_MAX_RUNS: {
      type: 'integer',
      minimum: 1,
      maximum: 10000,
      default: 1000,
      description: 'Most runs in one batch job (POST /api/jobs/ with `runs`)',
    },
    JOBS_RESULT_MAX_BYTES: {
      type: 'integer',
      minimum: 1024,
      maximum: 268435456,
      default: 16777216,
      description:
        'Largest answer a job keeps in Redis; a larger one fails the job with BUDGET_EXCEEDED (reason resultSize)',
    },
    JOBS_LIMIT_WAIT_SEC: {
      type: 'integer',
      minimum: 0,
      maximum: 86400,
      default: 3600,
      description:
        "How long a job waits for its caller's limits (a refusal with Retry-After) before it fails with that refusal",
    },
    JOBS_LOCK_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 600000,
      default: 30000,
      description:
        'How long a running job is held without its process renewing the hold: after a crash, another instance takes the job up this much later',
    },
    JOBS_REQUEST_LIMIT: {
      type: 'integer',
      minimum: 1,
      maximum: 10000000,
      default: 6000,
      description:
        'Requests to /api/jobs/ (submissions, reads, lists, cancels) one caller may make a minute; past it, 429 with Retry-After',
    },
    IDEMPOTENCY_TTL_SEC: {
      type: 'integer',
      minimum: 60,
      maximum: 2592000,
      default: 86400,
      description: 'How long an Idempotency-Key and the answer it replays are kept',
    },
    WEBHOOK_SECRET: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]{32,}={0,2}( whsec_[A-Za-z0-9+/]{32,}={0,2})?$',
      description:
        'With API keys off: the secret webhooks are signed with (`whsec_` and base64); two, space-separated, while rotating (both sign every delivery)',
    },
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: {
      type: 'boolean',
      default: false,
      description:
        'true: webhooks may reach private, loopback and link-local addresses (tests, a private network); false: refused, after DNS and on every redirect',
    },
    WEBHOOK_MAX_ATTEMPTS: {
      type: 'integer',
      minimum: 1,
      maximum: 30,
      default: 10,
      description: 'Attempts of one webhook delivery before it is given up (docs/api.md, "Webhooks")',
    },
    WEBHOOK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 60000,
      default: 10000,
      description: 'A webhook attempt that has no answer within this is a failed attempt',
    },
    WEBHOOK_RETRY_BASE_MS: {
      type: 'integer',
      minimum: 10,
      maximum: 600000,
      default: 5000,
      description:
        "The wait before a webhook's second attempt; each later one waits twice the one before (at most an hour), less up to half of it at random, or the receiver's Retry-After",
    },
    OTEL_TRACES_EXPORTER: {
      type: 'string',
      enum: ['otlp', 'console', 'none'],
      description:
        'Traces (docs/operations.md, "Traces"): `otlp` exports them, `console` prints them, `none` turns them off; unset: on when an OTLP endpoint is set',
    },
    OTEL_EXPORTER_OTLP_ENDPOINT: {
      type: 'string',
      description:
        'The OTLP collector (`http://collector:4318` for HTTP, `http://collector:4317` for gRPC); setting it turns traces on',
    },
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
      type: 'string',
      description:
        'The full address traces are sent to (`…/v1/traces` for HTTP); wins over OTEL_EXPORTER_OTLP_ENDPOINT',
    },
    OTEL_EXPORTER_OTLP_PROTOCOL: {
      type: 'string',
      enum: ['http/protobuf', 'http/json', 'grpc'],
      description: 'How traces travel to the collector; unset: `http/protobuf`',
    },
    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: {
      type: 'string',
      enum: ['http/protobuf', 'http/json', 'grpc'],
      description: 'As OTEL_EXPORTER_OTLP_PROTOCOL, for traces only; wins over it',
    },
    OTEL_TRACES_SAMPLER: {
      type: 'string',
      enum: [
        'always_on',
        'always_off',
        'traceidratio',
        'parentbased_always_on',
        'parentbased_always_off',
        'parentbased_traceidratio',
      ],
      description:
        "Which requests are traced; unset: `parentbased_traceidratio` at 0.1 (a caller's sampled `traceparent` is always followed, else 1 request in 10)",
    },
    OTEL_TRACES_SAMPLER_ARG: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      description: 'The ratio of the `traceidratio` samplers',
    },
    OTEL_SERVICE_NAME: {
      type: 'string',
      description: 'The service name on every span; unset: `tool-hub`',
    },
    OTEL_SDK_DISABLED: {
      type: 'boolean',
      description: '`true`: no traces, whatever else is set',
    },
  },
  additionalProperties: true,
} as const satisfies JSONSchema;

/**
 * The checked environment: derived from the schema above, never declared apart. Only the named
 * variables: `additionalProperties: true` would add an index signature (`[x: string]: unknown`).
 */
export type EnvConfig = { [K in keyof Env as string extends K ? never : K]: Env[K] };
type Env = FromSchema<typeof ENV_SCHEMA>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const validate = ownAjv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile<EnvConfig>(
  ENV_SCHEMA,
);

/**
 * Settings renamed, by their old name: the old one is still read (checked like the new one)
 * while the new one is unset, and the boot warns that it is used (src/plugins/junk.ts).
 */
export const RENAMED_SETTINGS = { REFUSAL_LIMIT: 'JUNK_LIMIT' } as const;

/** The boot's warn line for each renamed setting still set by its old name. */
export function renamedSettingsInUse(env: EnvConfig): string[] {
  return Object.entries(RENAMED_SETTINGS)
    .filter(([old]) => env[old as keyof typeof RENAMED_SETTINGS] !== undefined)
    .map(([old, now]) => `${old} is deprecated: set ${now} instead (${now} wins when both are set)`);
}

/** Reads the variables the hub knows from `env`; throws ConfigError naming each bad one. */
export function loadEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): EnvConfig {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(ENV_SCHEMA.properties)) {
    const value = env[key];
    // An empty variable means "unset", as in most twelve-factor apps.
    if (value !== undefined && value !== '') picked[key] = value;
  }
  if (!validate(picked)) {
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '') || String(e.params.missingProperty ?? '');
      return `${name}=${JSON.stringify(env[name] ?? '')} ${e.message ?? 'is invalid'}`;
    });
    throw new ConfigError(`invalid environment: ${problems.join('; ')}`);
  }
  const read: Record<string, unknown> = picked;
  for (const [old, now] of Object.entries(RENAMED_SETTINGS)) {
    const given = env[now] !== undefined && env[now] !== '';
    if (!given && read[old] !== undefined) read[now] = read[old];
  }
  return picked;
}
