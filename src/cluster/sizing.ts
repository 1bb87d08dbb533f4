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
 * Worker threads per process when POOL_THREADS is not set: one process alone gets the hub's
 * usual default (CPUs, 1..4); N > 1 processes get their share of the CPUs less one, the core
 * their API thread keeps busy (1..4). On 16 cores (docs/benchmarks.md, "Every core of the
 * box") 6 processes of 2 cores each answered 8 % more with one worker each than with two,
 * and 4 processes of 3 cores the same with two as with three.
 */
export function poolThreadsPerProcess(processes: number, cpus = availableParallelism()): number {
  const share = Math.floor(cpus / processes);
  return Math.max(1, Math.min(4, processes > 1 ? share - 1 : share));
}
