import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { GcTrace } from './gc-trace.js';

/** A server process the harness started: it is stopped by this PID and no other way. */
export interface ServerProcess {
  name: string;
  pid: number;
  base: string;
  proc: ChildProcess;
  exited: Promise<void>;
  /** The last few KiB of its stderr, for a failure message. */
  stderr: () => string;
  /** Allocation read from its `--trace-gc-nvp` lines (servers are started with it). */
  gc: GcTrace;
}

export interface StartSpec {
  name: string;
  /** Arguments to `node` (the script first). */
  args: string[];
  env: Record<string, string>;
  /** Listen port given through the env; when absent the server prints {"port":N} itself. */
  port?: number;
  /** GET path that answers 200 once the server can take load. */
  readyPath?: string;
  /** How often readyPath is asked (default 100 ms; the boot measurement asks every 5 ms). */
  pollMs?: number;
  /** Checks the ready answer's body (e.g. the limiter store really is Redis). */
  readyCheck?: (body: string) => string | null;
  timeoutMs?: number;
}

/** A server that would not come up: the sitting cannot measure what it was asked to. */
export class StartError extends Error {}

/** Every server still running, so SIGINT and crashes can stop exactly these. */
const live = new Set<ServerProcess>();

/** A port the kernel just handed out; probing beats a fixed range on a shared machine. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startServer(spec: StartSpec): Promise<ServerProcess> {
  // --trace-gc-nvp: one line per collection on stdout, read for the allocation per request.
  const proc = spawn(process.execPath, ['--trace-gc-nvp', ...spec.args], {
    env: spec.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`${spec.name}: could not spawn node`);
  let err = '';
  proc.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-4096);
  });
  const gc = new GcTrace();
  // stdout is always drained (a full pipe would stall the server); a `{"port":N}` line announces
  // the port of a server that picks its own.
  let announce: ((port: number) => void) | undefined;
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    if (gc.feed(line) || !announce || !line.startsWith('{"port":')) return;
    const port = (JSON.parse(line) as { port?: unknown }).port;
    if (typeof port === 'number') announce(port);
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const server: ServerProcess = {
    name: spec.name,
    pid: proc.pid,
    base: '',
    proc,
    exited,
    stderr: () => err,
    gc,
  };
  live.add(server);
  try {
    const port =
      spec.port ??
      (await new Promise<number>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('no port announced in time')),
          spec.timeoutMs ?? 15_000,
        );
        proc.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
        announce = (p) => {
          clearTimeout(timer);
          resolve(p);
        };
      }));
    server.base = `http://127.0.0.1:${port}`;
    if (spec.readyPath) await waitReady(server, spec);
    return server;
  } catch (error) {
    await stopServer(server);
    throw new StartError(`${spec.name} failed to start: ${(error as Error).message}\n${err.trim()}`);
  }
}

async function waitReady(server: ServerProcess, spec: StartSpec): Promise<void> {
  const deadline = Date.now() + (spec.timeoutMs ?? 30_000);
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (server.proc.exitCode !== null || server.proc.signalCode !== null) {
      throw new Error(`exited (${server.proc.exitCode ?? server.proc.signalCode}) before ready`);
    }
    try {
      const res = await fetch(`${server.base}${spec.readyPath}`, { signal: AbortSignal.timeout(2000) });
      const body = await res.text();
      // A failed readyCheck is retried too: the limiter store may still be connecting.
      const problem = res.status === 200 ? (spec.readyCheck?.(body) ?? null) : `HTTP ${res.status}`;
      if (problem === null) return;
      last = `${problem}: ${body.slice(0, 200)}`;
    } catch (error) {
      last = (error as Error).message; // not listening yet
    }
    await sleep(spec.pollMs ?? 100);
  }
  throw new Error(`not ready within ${spec.timeoutMs ?? 30_000} ms (last: ${last})`);
}

/** SIGTERM to its own PID, SIGKILL after the grace period: a stuck server cannot hang the run. */
export async function stopServer(server: ServerProcess, graceMs = 5000): Promise<void> {
  const { proc } = server;
  if (proc.exitCode === null && proc.signalCode === null) {
    process.kill(server.pid, 'SIGTERM');
    // An unref'd timer: once the server is gone, the grace period must not hold the harness open.
    const graceful = await Promise.race([
      server.exited.then(() => true),
      sleep(graceMs, false, { ref: false }),
    ]);
    if (!graceful && proc.exitCode === null && proc.signalCode === null) {
      process.kill(server.pid, 'SIGKILL');
      await server.exited;
    }
  }
  live.delete(server);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((s) => stopServer(s).catch(() => undefined)));
}

/** Last resort on process exit (synchronous): nothing we started may outlive the harness. */
export function killAllNow(): void {
  for (const server of live) {
    if (server.proc.exitCode === null && server.proc.signalCode === null) {
      try {
        process.kill(server.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  live.clear();
}

/** Resident set size in bytes from /proc/<pid>/status (VmRSS); null where /proc is absent. */
export async function readRss(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kib === undefined ? null : Number(kib) * 1024;
  } catch {
    return null;
  }
}
