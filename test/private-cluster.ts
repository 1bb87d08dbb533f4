import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, requireRedis } from './helpers.js';

const exec = promisify(execFile);

/** One `redis-cli` command against a loopback node; its reply as text. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  return (await exec('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8', timeout: 10_000 }))
    .stdout;
}

/**
 * Polls `check` every 200 ms until it is true (a throw counts as not yet); past `ms` fails,
 * saying what it waited for (`what` is read then, so it may describe the last state seen).
 */
export async function waitFor(
  what: string | (() => string),
  check: () => Promise<boolean>,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  const fail = (why: string) => new Error(`${typeof what === 'string' ? what : what()}: ${why}`);
  for (;;) {
    try {
      if (await check()) return;
    } catch (err) {
      if (Date.now() > deadline) throw fail((err as Error).message);
    }
    if (Date.now() > deadline) throw fail(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A data node's `redis-server` arguments: loopback, no persistence. */
export function nodeArgs(port: number): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
}

/** Starts `redis-server` (Debian's package) with `args` and waits until `port` answers. */
export async function spawnRedis(port: number, args: string[]): Promise<ChildProcess> {
  const proc = spawn('redis-server', args, { stdio: 'ignore' });
  try {
    await waitFor(`redis-server on ${port}`, async () => {
      if (proc.exitCode !== null) throw new Error(`redis-server ${args.join(' ')} exited`);
      await requireRedis(`redis://127.0.0.1:${port}`);
      return true;
    });
  } catch (err) {
    await killProcess(proc);
    throw err;
  }
  return proc;
}

/** Waits until a node is a master, or (`replica`: must be) a replica holding its master's data. */
export async function waitUntilSynced(port: number, replica = false): Promise<void> {
  await waitFor(`${port} in sync`, async () => {
    const info = await redisCli(port, 'info', 'replication');
    return (!replica && info.includes('role:master')) || info.includes('master_link_status:up');
  });
}

/** Kills a process by its own PID and waits for it to exit. */
export async function killProcess(p: ChildProcess | undefined): Promise<void> {
  if (!p || p.exitCode !== null || p.signalCode !== null) return;
  const exited = new Promise((r) => p.once('exit', r));
  p.kill('SIGKILL');
  await exited;
}

export interface ClusterOptions {
  /** Replicas per master: 1 starts six nodes, each master with one replica to promote. Default 0. */
  replicas?: 0 | 1;
  /** `cluster-node-timeout`: how long a master may not answer before its replica is promoted. Default 2000. */
  nodeTimeoutMs?: number;
}

/**
 * A private Redis Cluster on loopback: three `redis-server --cluster-enabled yes` masters
 * (and, with `replicas: 1`, a replica of each) on free ports, joined with
 * `redis-cli --cluster create`. Each node keeps its cluster config in a folder of its own,
 * so a killed node restarts into the same cluster (a master that lost its slots to its
 * replica meanwhile comes back as that one's replica).
 */
export class PrivateCluster {
  readonly ports: number[] = [];
  private readonly procs = new Map<number, ChildProcess>();
  private stopped = false;
  private readonly dir = mkdtempSync(join(tmpdir(), 'toolhub-cluster-'));

  constructor(private readonly opts: ClusterOptions = {}) {}

  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /** The nodes running now. */
  get live(): number[] {
    return this.ports.filter((p) => {
      const proc = this.procs.get(p);
      return proc !== undefined && proc.exitCode === null && proc.signalCode === null;
    });
  }

  async start(): Promise<void> {
    const replicas = this.opts.replicas ?? 0;
    for (let i = 0; i < 3 * (1 + replicas); i++) this.ports.push(await freePort());
    // Every start settles before a failure is thrown, so stop() finds every node started.
    const started = await Promise.allSettled(this.ports.map((port) => this.startNode(port)));
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    await exec('redis-cli', [
      '--cluster',
      'create',
      ...this.ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    await this.waitUntilOk();
    if (replicas) await Promise.all(this.ports.map((p) => waitUntilSynced(p)));
  }

  async startNode(port: number): Promise<void> {
    const cluster = [
      '--cluster-enabled',
      'yes',
      '--cluster-config-file',
      join(this.dir, `nodes-${port}.conf`),
      '--cluster-node-timeout',
      String(this.opts.nodeTimeoutMs ?? 2000),
    ];
    const proc = await spawnRedis(port, [...nodeArgs(port), ...cluster, '--dir', this.dir]);
    // A test that timed out while a node was starting has had its cluster stopped meanwhile:
    // the node started too late for stop() must not outlive the test.
    if (this.stopped) {
      await killProcess(proc);
      throw new Error(`redis-server on ${port} started after its cluster was stopped`);
    }
    this.procs.set(port, proc);
  }

  /** Waits for every slot to be served (cluster_state:ok) in the view of every running node. */
  async waitUntilOk(): Promise<void> {
    let info = '';
    await waitFor(
      () => `cluster_state:ok (last: ${info})`,
      async () => {
        for (const p of this.live) {
          info = await redisCli(p, 'cluster', 'info');
          if (!info.includes('cluster_state:ok')) return false;
        }
        return true;
      },
    );
  }

  /** The port of the master serving `key`'s slot, in `viewer`'s view (CLUSTER NODES); 0 if none. */
  async masterOf(key: string, viewer = this.live[0]!): Promise<number> {
    const slot = Number((await redisCli(viewer, 'cluster', 'keyslot', key)).trim());
    for (const line of (await redisCli(viewer, 'cluster', 'nodes')).trim().split('\n')) {
      const [, addr, flags, , , , , , ...slots] = line.split(' ');
      if (!flags?.split(',').includes('master') || /fail/.test(flags)) continue;
      const serves = slots.some((range) => {
        const [from, to = from] = range.split('-').map(Number);
        return slot >= from! && slot <= to!;
      });
      if (serves) return Number(addr!.split(':')[1]!.split('@')[0]);
    }
    return 0;
  }

  /**
   * After `dead` (the master of `key`) was killed: waits until every running node names
   * the same running master for `key` and the cluster is whole again; returns that master.
   */
  async waitForFailover(dead: number, key: string, ms = 60_000): Promise<number> {
    let master = 0;
    await waitFor(
      `a replica of ${dead} promoted`,
      async () => {
        const views = await Promise.all(this.live.map((p) => this.masterOf(key, p)));
        master = views[0]!;
        return master !== dead && this.live.includes(master) && views.every((v) => v === master);
      },
      ms,
    );
    await this.waitUntilOk();
    return master;
  }

  /** Starts a killed node again and waits until it serves as an in-sync replica. */
  async rejoin(port: number): Promise<void> {
    await this.startNode(port);
    await waitUntilSynced(port, true);
    await this.waitUntilOk();
  }

  /** Kills one node by its own PID. */
  async kill(port: number): Promise<void> {
    await killProcess(this.procs.get(port));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.ports.map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
