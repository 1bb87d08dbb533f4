import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import { availableParallelism } from 'node:os';
import Fastify, { type FastifyServerOptions, LogController } from 'fastify';
import { ConfigError } from './config/env.js';
import { defaultMaxConnections } from './config/fd-limit.js';
import { type HubConfig, loadConfig } from './config/index.js';
import { resolvePolicies } from './config/policy.js';
import { toolResources } from './config/resources.js';
import { HubError } from './errors.js';
import { frameworkErrorHandler } from './http/bad-url.js';
import { clientErrorHandler } from './http/client-error.js';
import { guardConnections } from './http/connections.js';
import type { JunkCounter } from './http/junk.js';
import { scanTools } from './registry.js';
import { WIRING } from './wiring.js';

export interface BuildOptions {
  /** Environment variables; default process.env (tests pass their own). */
  env?: Record<string, string | undefined>;
  /** pino options or false; default: level from LOG_LEVEL. */
  logger?: FastifyServerOptions['logger'];
  /** Replaces the hub's own tools (its package.json's toolhub block) with a folder (tests); TOOL_PACKAGES and EXTRA_TOOL_DIRS still apply. */
  toolsDir?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the whole app without listening (fastify/demo): tests drive it with inject(). */
export async function buildApp(options: BuildOptions = {}) {
  const config: HubConfig = loadConfig(options.env ?? process.env);
  const { env } = config;
  const tools = await scanTools({
    toolsDir: options.toolsDir,
    packages: config.toolPackages,
    packagesDir: config.toolPackagesDir,
    extraDirs: config.extraToolDirs,
  });
  const { resources, warnings } = toolResources(
    [...tools.values()].map((t) => ({ id: t.def.id, needs: t.needs })),
    { heapMb: env.WORKER_HEAP_MB, memoryMaxMb: env.TOOL_MEMORY_MAX_MB, network: config.toolNetwork },
  );
  for (const id of config.toolNetwork)
    if (!tools.has(id)) throw new ConfigError(`TOOL_NETWORK: unknown toolId '${id}'`);
  const policies = resolvePolicies(
    [...tools.values()].map((t) => t.def),
    env,
    config.policyFile,
    resources,
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
  app.decorate('tools', tools);
  app.decorate('policies', policies);
  for (const line of warnings) app.log.warn(line);
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

  // Each part reads its own settings from app.hubConfig (src/wiring.ts: the order, and the
  // plugins table of docs/architecture.md).
  for (const part of WIRING) await app.register(part.register);
  return app;
}
