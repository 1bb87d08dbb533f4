import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { availableParallelism } from 'node:os';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { processCount } from './cluster/sizing.js';
import { defaultMaxConnections } from './config/fd-limit.js';
import { type HubConfig, loadConfig } from './config/index.js';
import { resolvePolicies } from './config/policy.js';
import { HubError } from './errors.js';
import { frameworkErrorHandler } from './http/bad-url.js';
import { clientErrorHandler } from './http/client-error.js';
import { guardConnections } from './http/connections.js';
import type { JunkCounter } from './http/junk.js';
import { mcpAllowedHosts } from './mcp/hosts.js';
import accessLogPlugin from './plugins/access-log.js';
import apiKeysPlugin from './plugins/api-keys.js';
import cataloguePlugin from './plugins/catalogue.js';
import corsPlugin from './plugins/cors.js';
import errorsPlugin from './plugins/errors.js';
import facadePlugin from './plugins/facade.js';
import hostHeaderPlugin from './plugins/host-header.js';
import jsonBodyPlugin from './plugins/json-body.js';
import junkPlugin from './plugins/junk.js';
import limiterEvictionPlugin from './plugins/limiter-eviction.js';
import limitsPlugin from './plugins/limits.js';
import mcpPlugin from './plugins/mcp.js';
import memoryAdmissionPlugin from './plugins/memory-admission.js';
import metricsPlugin from './plugins/metrics.js';
import pagesPlugin from './plugins/pages.js';
import poolPlugin from './plugins/pool.js';
import pressurePlugin from './plugins/pressure.js';
import resultCachePlugin from './plugins/result-cache.js';
import uploadLimitPlugin from './plugins/upload-limit.js';
import { LOWERED_DEADLINE_FACTOR } from './pool/pool.js';
import { scanTools } from './registry.js';
import batchRequestRoutes from './routes/batch.js';
import dedicatedRoutes from './routes/dedicated.js';
import healthRoutes from './routes/health.js';
import runtimeRoutes from './routes/runtime.js';
import usageRoutes from './routes/usage.js';
import { compileValidators } from './run/input.js';

declare module 'fastify' {
  interface FastifyInstance {
    hubConfig: HubConfig;
  }
}

export interface BuildOptions {
  /** Environment variables; default process.env (tests pass their own). */
  env?: Record<string, string | undefined>;
  /** pino options or false; default: level from LOG_LEVEL. */
  logger?: FastifyServerOptions['logger'];
  /** Replaces the built-in tools/ folder (tests of the registry); EXTRA_TOOL_DIRS still apply. */
  toolsDir?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the whole app without listening (fastify/demo): tests drive it with inject(). */
export async function buildApp(options: BuildOptions = {}) {
  const config: HubConfig = loadConfig(options.env ?? process.env);
  const { env } = config;
  const tools = await scanTools(config.extraToolDirs, options.toolsDir);
  const policies = resolvePolicies(
    [...tools.values()].map((t) => t.def),
    env,
    config.policyFile,
  );

  const maxConnections = env.MAX_CONNECTIONS || defaultMaxConnections();
  const app = Fastify({
    logger: options.logger ?? { level: env.LOG_LEVEL },
    // fastify accepts a hop count at run time; its types omit it.
    trustProxy: config.trustProxy as boolean | string[],
    bodyLimit: env.BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    requestIdHeader: false,
    // Honour a well-formed x-request-id; anything else gets a fresh id.
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // One log line per request (onResponse below) instead of fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // Requests that arrive while closing get our own 503 below, not fastify's shape.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // A request (headers and body) must arrive within REQUEST_TIMEOUT_MS; Node checks every second.
    requestTimeout: env.REQUEST_TIMEOUT_MS,
    // Node applies a request timeout only while headersTimeout is not longer than it, and
    // only when both are given at construction.
    http: {
      connectionsCheckingInterval: 1000,
      requestTimeout: env.REQUEST_TIMEOUT_MS,
      headersTimeout: Math.min(env.REQUEST_TIMEOUT_MS, 60_000),
      // HTTP/1.1 without Host gets the hub's counted 400 (src/plugins/host-header.ts), not Node's bare one.
      requireHostHeader: false,
    },
    frameworkErrors: frameworkErrorHandler((): JunkCounter | undefined => app.junk),
    clientErrorHandler: clientErrorHandler({
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      onJunk: (address) => app.junk?.count(address),
    }),
  });

  app.decorate('hubConfig', config);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style hooks: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (!closing) return done();
    done(
      new HubError('CONCURRENCY_LIMIT', 'the instance is shutting down; retry shortly', {
        status: 503,
        headers: { 'Retry-After': 1, Connection: 'close' },
      }),
    );
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    // A keep-alive socket would hold server.close() open after its last answer.
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
  // An HTTP/1.1 server: the `http` option above only widens fastify's inferred server type.
  guardConnections(app.server as unknown as HttpServer, maxConnections, app.log);
  if (env.POOL_THREADS > 2 * availableParallelism()) {
    app.log.warn(
      `POOL_THREADS=${env.POOL_THREADS} is far above the ${availableParallelism()} CPU cores: runs will compete for them`,
    );
  }

  await app.register(accessLogPlugin);
  await app.register(errorsPlugin);
  await app.register(junkPlugin, { limit: env.JUNK_LIMIT });
  await app.register(hostHeaderPlugin);
  await app.register(corsPlugin, { origins: env.CORS_ORIGINS });
  await app.register(uploadLimitPlugin, { bodyLimit: env.BODY_LIMIT_BYTES });
  await app.register(apiKeysPlugin, { path: env.API_KEYS_FILE });
  await app.register(jsonBodyPlugin);
  await app.register(pressurePlugin, env);
  await app.register(memoryAdmissionPlugin, env);
  await app.register(limitsPlugin, {
    redis: config.redis,
    prefix: env.REDIS_PREFIX,
    commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    capWaitMs: env.CAP_WAIT_MS,
    // A lease on a client's slot lives as long as its run can: the waits for the tool's cap
    // and for memory, the pool's queue, and a lowered run's wall-time bound, plus the answer.
    leaseMs: (policy) =>
      2 * env.CAP_WAIT_MS + env.QUEUE_WAIT_MS + LOWERED_DEADLINE_FACTOR * policy.timeoutMs + 5000,
    // One of HUB_PROCESSES started by the primary (which resolves `auto` to a number for it).
    processes: cluster.isWorker ? processCount(env.HUB_PROCESSES) : 1,
  });
  await app.register(limiterEvictionPlugin);
  await app.register(poolPlugin, {
    threads: env.POOL_THREADS,
    overflow: env.POOL_OVERFLOW_THREADS,
    maxQueue: env.POOL_MAX_QUEUE,
    queueWaitMs: env.QUEUE_WAIT_MS,
    heapMb: env.WORKER_HEAP_MB,
    resultMaxBytes: env.RESULT_MAX_BYTES,
    tools: Object.fromEntries([...tools].map(([id, t]) => [id, t.runPath])),
  });
  await app.register(metricsPlugin);
  await app.register(resultCachePlugin, {
    shared: env.CACHE_SHARED,
    own: config.cacheRedis,
    limiter: config.redis,
    prefix: env.REDIS_PREFIX,
    commandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    maxEntryBytes: env.CACHE_MAX_ENTRY_BYTES,
    memoryBytes: env.CACHE_MEMORY_BYTES,
  });
  await app.register(facadePlugin, {
    tools,
    policies,
    validators: compileValidators(tools),
    runsEnabled: config.runsEnabled,
  });
  await app.register(cataloguePlugin, {
    baseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
    runsEnabled: config.runsEnabled,
    batchMaxRuns: env.BATCH_MAX_RUNS,
  });
  await app.register(pagesPlugin, {
    runsEnabled: config.runsEnabled,
    baseUrl: env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`,
  });
  await app.register(mcpPlugin, {
    allowedHosts: mcpAllowedHosts(env.MCP_ALLOWED_HOSTS, env.HOST, env.PUBLIC_BASE_URL),
    messageLimit: env.MCP_MESSAGE_LIMIT,
    maxMessages: env.MCP_BATCH_MAX_MESSAGES,
    maxAnswerBytes: env.MCP_BATCH_MAX_ANSWER_BYTES,
    prefix: env.REDIS_PREFIX,
  });
  await app.register(healthRoutes);
  await app.register(runtimeRoutes);
  await app.register(batchRequestRoutes, { maxRuns: env.BATCH_MAX_RUNS });
  await app.register(dedicatedRoutes);
  await app.register(usageRoutes);
  return app;
}
