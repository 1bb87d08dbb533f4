import { type ChildProcess, spawn } from 'node:child_process';
import { freePort, requireRedis } from './helpers.js';

/**
 * A private `redis-server` (Debian's package) on a free loopback port, for tests that
 * stop, restart or slow Redis: the shared one at REDIS_URL is never touched.
 */
export class PrivateRedis {
  private proc: ChildProcess | undefined;
  port = 0;

  /** `args`: more `redis-server` arguments, such as `--maxmemory 4mb --maxmemory-policy volatile-ttl`. */
  constructor(private readonly args: readonly string[] = []) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.port === 0) this.port = await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.proc = spawn('redis-server', [...args, '--enable-debug-command', 'yes', ...this.args], {
      stdio: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await requireRedis(this.url);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Kills it by its own PID (no graceful save: it keeps nothing). */
  async stop(): Promise<void> {
    const p = this.proc;
    // Killed by a signal, exitCode stays null: signalCode says it has exited.
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }
}
