import { readFileSync } from 'node:fs';
import os from 'node:os';

/** Where the numbers were measured: absolute figures mean nothing without it. */
export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: the machine is shared. */
  loadAverage: number;
  /** The same when the run ended (filled in by the harness). */
  loadAverageEnd?: number;
  versions: Record<string, string>;
}

function versionOf(pkg: string): string {
  try {
    // Read the file directly: some packages' `exports` hide their package.json from require.
    const path = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function describeMachine(now: Date): Machine {
  return {
    date: now.toISOString(),
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    loadAverage: loadNow(),
    versions: Object.fromEntries(
      ['fastify', 'autocannon', 'piscina', 'ioredis'].map((p) => [p, versionOf(p)]),
    ),
  };
}

export function loadNow(): number {
  return Math.round((os.loadavg()[0] ?? 0) * 100) / 100;
}

export function machineLine(m: Machine): string {
  const end = m.loadAverageEnd === undefined ? '' : `, ${m.loadAverageEnd} at end`;
  return `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}, load ${m.loadAverage} at start${end}`;
}
