import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './helpers.js';
import { killProcess, nodeArgs, redisCli, spawnRedis, waitFor, waitUntilSynced } from './private-cluster.js';

/**
 * A private Sentinel setup on loopback: a master, its replica (`--replicaof`) and one
 * `redis-server --sentinel` (quorum 1) that fails the master over a second after it stops
 * answering. A killed node comes back as a replica of whichever master serves then.
 */
export class PrivateSentinel {
  readonly name = 'hubmaster';
  /** The two data nodes. */
  readonly ports: number[] = [];
  private sentinelPort = 0;
  private readonly procs = new Map<number, ChildProcess>();
  private stopped = false;
  private sentinel: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'toolhub-sentinel-'));

  /** REDIS_SENTINELS for the hub. */
  get sentinels(): string {
    return `127.0.0.1:${this.sentinelPort}`;
  }

  async start(): Promise<void> {
    this.ports.push(await freePort(), await freePort());
    this.sentinelPort = await freePort();
    const [master, replica] = this.ports as [number, number];
    await this.startNode(master);
    await this.startNode(replica, master);
    await waitUntilSynced(replica, true);
    const conf = join(this.dir, 'sentinel.conf');
    writeFileSync(
      conf,
      [
        `port ${this.sentinelPort}`,
        'bind 127.0.0.1',
        `dir ${this.dir}`,
        `sentinel monitor ${this.name} 127.0.0.1 ${master} 1`,
        `sentinel down-after-milliseconds ${this.name} 1000`,
        `sentinel failover-timeout ${this.name} 3000`,
        '',
      ].join('\n'),
    );
    this.sentinel = await spawnRedis(this.sentinelPort, [conf, '--sentinel']);
    await this.waitForReplica(replica);
  }

  private async startNode(port: number, masterPort?: number): Promise<void> {
    const replicaOf = masterPort ? ['--replicaof', '127.0.0.1', String(masterPort)] : [];
    // Its own folder: a replica's full sync writes an RDB file where it runs.
    const proc = await spawnRedis(port, [...nodeArgs(port), ...replicaOf, '--dir', this.dir]);
    // Started after stop() (a test that timed out meanwhile): it must not outlive the test.
    if (this.stopped) {
      await killProcess(proc);
      throw new Error(`redis-server on ${port} started after its sentinel set was stopped`);
    }
    this.procs.set(port, proc);
  }

  private async sentinelSays(...args: string[]): Promise<string[]> {
    return (await redisCli(this.sentinelPort, 'sentinel', ...args)).trim().split('\n');
  }

  /** The port of the master the Sentinel names (every key lives there). */
  async masterOf(_key?: string): Promise<number> {
    return Number((await this.sentinelSays('get-master-addr-by-name', this.name))[1]);
  }

  /** Waits until the Sentinel sees `port` as a healthy replica (one it could promote). */
  private async waitForReplica(port: number): Promise<void> {
    await waitFor(`the Sentinel seeing ${port} as a replica`, async () => {
      // Flat `field value` lines, one record after another, each opening with `name`.
      const lines = await this.sentinelSays('replicas', this.name);
      for (let i = 0; i < lines.length; i += 2) {
        if (lines[i] !== 'port' || lines[i + 1] !== String(port)) continue;
        const flags = lines[lines.indexOf('flags', i) + 1] ?? '';
        const link = lines[lines.indexOf('master-link-status', i) + 1];
        return flags === 'slave' && link === 'ok';
      }
      return false;
    });
  }

  /** After `dead` (the master) was killed: waits until the Sentinel names a running master; returns it. */
  async waitForFailover(dead: number, _key?: string, ms = 60_000): Promise<number> {
    let master = 0;
    await waitFor(
      `the Sentinel promoting the replica of ${dead}`,
      async () => {
        master = await this.masterOf();
        return master !== dead && (await redisCli(master, 'role')).startsWith('master');
      },
      ms,
    );
    return master;
  }

  /** Starts a killed node again as a replica of the master now, and waits until it is in sync. */
  async rejoin(port: number): Promise<void> {
    await this.startNode(port, await this.masterOf());
    await waitUntilSynced(port, true);
    await this.waitForReplica(port);
  }

  /** Kills one data node by its own PID. */
  async kill(port: number): Promise<void> {
    await killProcess(this.procs.get(port));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await killProcess(this.sentinel);
    await Promise.all(this.ports.map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
