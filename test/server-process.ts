import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { projectRoot } from '../src/paths.js';
import { freePort } from './helpers.js';

/** The built server (`dist/`, made by `npm test`'s pretest build) as a real process on loopback. */
export const serverJs = join(projectRoot, 'dist', 'src', 'server.js');

export interface Instance {
  proc: ChildProcess;
  base: string;
  exited: Promise<number | null>;
  stderr: () => string;
  /** What the server logged (pino writes to stdout). */
  stdout: () => string;
}

export interface StartOptions {
  /** Soft limit on open files (`ulimit -n`) of the server process. */
  openFiles?: number;
  /** The port to listen on, when the env names it too (PUBLIC_BASE_URL); default a free one. */
  port?: number;
  /** Ready on the insurance limiter will do (a Redis that is not there, on purpose). */
  degraded?: boolean;
}

/**
 * Every server this test process started and that has not ended. A test that times out while
 * its servers boot never reaches its `finally` (a loaded-proof run once left a tracing test's
 * three hubs running for an hour): whatever is still alive when the file's tests end, or when
 * this process exits, is stopped by its PID here.
 */
const live = new Set<ChildProcess>();
const stopLeftovers = () => {
  for (const proc of live) {
    stopping.add(proc);
    proc.kill('SIGKILL');
  }
  live.clear();
};
process.once('exit', stopLeftovers);
afterAll(stopLeftovers);

/** A server that could not bind the port it was given: another process took it first. */
class PortTaken extends Error {}

export async function startInstance(env: Record<string, string>, opts: StartOptions = {}): Promise<Instance> {
  if (!existsSync(serverJs))
    throw new Error(`${serverJs} is missing: run 'npm run build' (npm test does it)`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(opts.port ?? (await freePort()), env, opts);
    } catch (error) {
      // The probed port can be taken by another process before the server binds it (two
      // suites on one machine): a port of our choosing is chosen again.
      if (!(error instanceof PortTaken) || opts.port !== undefined || attempt >= 3) throw error;
    }
  }
}

async function startOn(port: number, env: Record<string, string>, opts: StartOptions): Promise<Instance> {
  const serverEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // A loaded machine can stall a server's event loop past the shedding bound: load
    // shedding has tests of its own (test/hostile-runs.test.ts), these servers test the rest.
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  };
  const stdio: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];
  // `exec` keeps the PID the server's own, so it is stopped by its PID.
  const proc =
    opts.openFiles === undefined
      ? spawn(process.execPath, [serverJs], { env: serverEnv, stdio })
      : spawn('bash', ['-c', `ulimit -n ${opts.openFiles} && exec "$0" "$1"`, process.execPath, serverJs], {
          env: serverEnv,
          stdio,
        });
  let stderr = '';
  let stdout = '';
  proc.stderr?.on('data', (d) => {
    stderr += String(d);
  });
  proc.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  live.add(proc);
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => {
      live.delete(proc);
      resolve(code);
    }),
  );
  // A server that dies of itself (not SIGKILLed by stopInstance, not SIGTERMed by a test that
  // then awaits its exit) says so in the test output, with its last words: a later "fetch
  // failed" or an empty reply is otherwise all a failing run shows.
  proc.once('exit', (code, signal) => {
    if (stopping.has(proc) || signal === 'SIGTERM' || code === 0) return;
    console.error(
      `server ${proc.pid} on port ${port} exited (code ${code}, signal ${signal}); stderr:\n${stderr.slice(-4000)}`,
    );
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) {
      const Failure = stderr.includes('EADDRINUSE') ? PortTaken : Error;
      throw new Failure(`server exited early: ${stderr}`);
    }
    try {
      const res = await fetch(`${base}/readyz`);
      // With Redis configured, ready means counting in Redis, not on the insurance store, with
      // its eviction policy read and the result cache's connection up (the shared layer's
      // state settled: docs/operations.md, "Health and readiness").
      if (
        res.ok &&
        (opts.degraded ||
          !(env.REDIS_URL || env.REDIS_CLUSTER_NODES || env.REDIS_SENTINELS) ||
          settled(await res.json()))
      )
        break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // A test that fails here never gets the instance to stop: stop it now.
      stopping.add(proc);
      proc.kill('SIGKILL');
      await exited;
      throw new Error(`server did not become ready: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, base, exited, stderr: () => stderr, stdout: () => stdout };
}

/** A /readyz body of a hub on Redis: counting there, its eviction policy read, its result cache not waiting for Redis. */
function settled(body: {
  limiterStore: string;
  limiterRedis?: { evictable: boolean | null };
  resultCache?: string;
}) {
  return (
    body.limiterStore === 'redis' && body.limiterRedis?.evictable !== null && body.resultCache !== 'degraded'
  );
}

/** Stops an instance by its own PID (SIGKILL: tests that check SIGTERM send it themselves). */
/** Servers stopped by stopInstance: their end is no news. */
const stopping = new WeakSet<ChildProcess>();

export async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (instance && instance.proc.exitCode === null) {
    stopping.add(instance.proc);
    instance.proc.kill('SIGKILL');
    await instance.exited;
  }
}

/** POSTs JSON and returns status, parsed body and how long the answer took. */
export async function postJson(
  url: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown>; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body: parsed, ms: performance.now() - started };
}
