import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, requireRedis } from './helpers.js';

/**
 * A private Redis Cluster on loopback: three `redis-server --cluster-enabled yes` masters
 * on free ports, joined with `redis-cli --cluster create`. Each node keeps its cluster
 * config in a folder of its own, so a killed node restarts into the same cluster.
 */
export class PrivateCluster {
  readonly ports: number[] = [];
  private readonly procs = new Map<number, ChildProcess>();
  private readonly dir = mkdtempSync(join(tmpdir(), 'toolhub-cluster-'));

  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  async start(): Promise<void> {
    for (let i = 0; i < 3; i++) this.ports.push(await freePort());
    await Promise.all(this.ports.map((port) => this.startNode(port)));
    execFileSync(
      'redis-cli',
      [
        '--cluster',
        'create',
        ...this.ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      {
        stdio: 'ignore',
      },
    );
    await this.waitUntilOk();
  }

  async startNode(port: number): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const cluster = [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(this.dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      '2000',
    ];
    this.procs.set(
      port,
      spawn('redis-server', [...args, ...cluster, '--dir', this.dir], { stdio: 'ignore' }),
    );
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await requireRedis(`redis://127.0.0.1:${port}`);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** Waits for every slot to be served (cluster_state:ok). */
  async waitUntilOk(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const info = execFileSync('redis-cli', ['-p', String(this.ports[0]), 'cluster', 'info'], {
        encoding: 'utf8',
      });
      if (info.includes('cluster_state:ok')) return;
      if (Date.now() > deadline) throw new Error(`cluster not ok: ${info}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Kills one node by its own PID. */
  async kill(port: number): Promise<void> {
    const p = this.procs.get(port);
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  }

  async stop(): Promise<void> {
    await Promise.all(this.ports.map((port) => this.kill(port)));
  }
}
