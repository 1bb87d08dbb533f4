import { readFileSync } from 'node:fs';

/** Assumed when the limit cannot be read (not Linux): the common default soft limit. */
const FALLBACK_LIMIT = 1024;

/**
 * The process's soft limit on open file descriptors (`ulimit -n`). Node has no getrlimit;
 * on Linux /proc/self/limits has it. Read once at boot.
 */
export function openFilesLimit(): number {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft === 'unlimited') return 1_000_000;
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : FALLBACK_LIMIT;
  } catch {
    return FALLBACK_LIMIT;
  }
}

/**
 * MAX_CONNECTIONS when not set: three quarters of the descriptor limit, so that a flood of
 * connections meets the cap (refused at accept) before the process runs out of
 * descriptors for its own files, workers and Redis.
 */
export function defaultMaxConnections(limit = openFilesLimit()): number {
  return Math.max(16, Math.floor(limit * 0.75));
}
