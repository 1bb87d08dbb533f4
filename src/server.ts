/**
 * SIGHUP re-reads the API keys (docs/operations.md, "Securing the hub") and the named
 * pipelines (docs/api.md, "Pipelines"). Its default action
 * ends the process, so its handler goes in first, before the app's modules are loaded
 * (imported below, after it): a SIGHUP during the boot (a config-management run, a
 * terminal closing) once killed a starting instance. One that comes before the app exists
 * is remembered and answered with a reload once it does (keys read by then may be stale).
 */
let reloadKeys: (() => void) | null = null;
let hupDuringBoot = false;
process.on('SIGHUP', () => {
  if (reloadKeys) reloadKeys();
  else hupDuringBoot = true;
});

const { default: cluster } = await import('node:cluster');
// An API process of HUB_PROCESSES tells its primary it may now be sent SIGHUP: before the
// handler above, the signal's default action would end it (src/cluster/primary.ts).
if (cluster.isWorker) process.send?.({ toolhub: 'hup-ready' });
const { ConfigError } = await import('./config/env.js');

/**
 * HUB_PROCESSES > 1 (docs/operations.md, "Every core of the box"): this process becomes the
 * primary of that many API processes on one port (src/cluster/primary.ts) and serves nothing
 * itself. The whole configuration is checked here first, so a bad value stops the boot once.
 */
async function primary(): Promise<boolean> {
  // One process (the default): buildApp reads and checks the configuration, once.
  const asked = process.env.HUB_PROCESSES;
  if (!cluster.isPrimary || asked === undefined || asked === '' || asked === '1') return false;
  const { loadConfig } = await import('./config/index.js');
  const { processCount, poolThreadsPerProcess } = await import('./cluster/sizing.js');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`tool-hub: ${err.message}\n`);
    process.exit(1);
  }
  const processes = processCount(config.env.HUB_PROCESSES);
  if (processes <= 1) return false;
  if (!config.redis) {
    process.stderr.write(
      `tool-hub: HUB_PROCESSES=${config.env.HUB_PROCESSES} (${processes} processes) needs Redis (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): in-process limits would count once per process, ${processes} times the policy\n`,
    );
    process.exit(1);
  }
  const { runPrimary, forwardHangup } = await import('./cluster/primary.js');
  const env = { ...process.env } as Record<string, string>;
  env.POOL_THREADS ??= String(poolThreadsPerProcess(processes));
  // Each process reads the box's count as a number (its share of the limits while Redis is away).
  env.HUB_PROCESSES = String(processes);
  runPrimary({
    processes,
    env,
    shutdownTimeoutMs: config.env.SHUTDOWN_TIMEOUT_MS,
    logLevel: config.env.LOG_LEVEL,
  });
  // A SIGHUP before this needs no passing on: the processes, started after it, read the file.
  reloadKeys = forwardHangup;
  return true;
}

/** Listens and shuts down gracefully; everything else is built by buildApp(). */
async function main(): Promise<void> {
  // Loaded here, not in a primary: it serves nothing and needs none of the app.
  const { buildApp } = await import('./app.js');
  const { RegistryError } = await import('./registry.js');
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp();
  } catch (err) {
    if (err instanceof ConfigError || err instanceof RegistryError) {
      process.stderr.write(`tool-hub: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const { PORT: port, HOST: host, SHUTDOWN_TIMEOUT_MS: timeoutMs } = app.hubConfig.env;

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight runs');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    await app.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Keys added or revoked without a restart; a file that no longer checks keeps the old keys.
  reloadKeys = () => {
    // The named pipelines too (docs/api.md, "Pipelines"): a bad file keeps the old set.
    app.reloadPipelines();
    if (!app.apiKeys) return;
    try {
      app.log.warn({ keys: app.apiKeys.reload() }, 'API keys reloaded (SIGHUP)');
    } catch (err) {
      app.log.error(
        { reason: (err as Error).message },
        'API keys not reloaded: the file is invalid; the old keys stay',
      );
    }
  };
  if (hupDuringBoot) reloadKeys();
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    await app.listen({ port, host });
  } catch (err) {
    // A host that does not resolve, a port in use or not allowed: one line, no stack.
    const e = err as NodeJS.ErrnoException;
    process.stderr.write(`tool-hub: cannot listen on HOST=${host} PORT=${port}: ${e.code ?? e.message}\n`);
    await app.close().catch(() => {});
    process.exit(1);
  }
}

if (!(await primary())) await main();
