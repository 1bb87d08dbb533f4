import { availableParallelism } from 'node:os';

/**
 * How many API processes HUB_PROCESSES asks for (docs/operations.md, "Every core of the
 * box"): a number as it is, `auto` one per two CPUs this process may use
 * (`availableParallelism` follows cgroup CPU limits and affinity), at least one.
 */
export function processCount(value: string, cpus = availableParallelism()): number {
  return value === 'auto' ? Math.max(1, Math.floor(cpus / 2)) : Number(value);
}

/**
 * Worker threads per process when POOL_THREADS is not set: the CPUs shared out among the
 * processes, 1..4 (one process alone gets the hub's usual default, CPUs up to 4), so N
 * processes keep about one active thread per CPU besides their API threads.
 */
export function poolThreadsPerProcess(processes: number, cpus = availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cpus / processes)));
}
