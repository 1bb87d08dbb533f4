/**
 * SIGTERM racing runs still queued in the pool (issue 19): a load generator fires a burst,
 * closes its connections while runs wait for a worker, and the instance is told to stop.
 * The closing pool must settle those runs (docs/operations.md, "Shutdown") instead of
 * sending them to its closing workers again and again, which kept the process alive at
 * full CPU forever. Real processes, real HTTP.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { policyFile } from '../helpers.js';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

const SHUTDOWN_TIMEOUT_MS = 10_000;
const ITERATIONS = 8;
const REST_RUNS = 48;
const MCP_RUNS = 24;
/** A safety bound only: a spinning process never exits, one that drained exits long before. */
const EXIT_BOUND_MS = SHUTDOWN_TIMEOUT_MS + 20_000;

let policy: string;
beforeAll(async () => {
  // Caps and limits out of the way, so that the whole burst reaches the pool's queue.
  const open = { limit: 1_000_000, maxInFlight: 1000, maxInFlightPerClient: 1000, computeBudgetMs: 1e9 };
  policy = await policyFile({ tools: { 'token-counter': open } });
});

/** 16 KiB of text, different for every run. */
function text(i: number): string {
  return `run ${i}: ${'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(300)}`.slice(
    0,
    16_384,
  );
}

function fire(hub: Instance, signal: AbortSignal): Promise<unknown>[] {
  const rest = Array.from({ length: REST_RUNS }, (_, i) =>
    fetch(`${hub.base}/api/token-counter/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: text(i) }),
      signal,
    }).then((res) => res.text()),
  );
  const mcp = Array.from({ length: MCP_RUNS }, (_, i) =>
    fetch(`${hub.base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'token-counter', arguments: { text: text(REST_RUNS + i) } },
      }),
      signal,
    }).then((res) => res.text()),
  );
  return [...rest, ...mcp];
}

/** Runs waiting for a worker now (not running), from /readyz. */
async function queued(hub: Instance): Promise<number> {
  const ready = (await (await fetch(`${hub.base}/readyz`)).json()) as { pool: { queueSize: number } };
  return ready.pool.queueSize;
}

describe('SIGTERM while runs of aborted requests are queued', () => {
  it.each(Array.from({ length: ITERATIONS }, (_, i) => i + 1))('exits in time (try %i)', async () => {
    const hub = await startInstance({
      POLICY_FILE: policy,
      POOL_THREADS: '8',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      QUEUE_WAIT_MS: '60000',
      MCP_MESSAGE_LIMIT: '0',
    });
    try {
      const client = new AbortController();
      const calls = fire(hub, client.signal);
      for (const call of calls) call.catch(() => {}); // aborted below
      await expect.poll(() => queued(hub), { timeout: 30_000, interval: 5 }).toBeGreaterThan(0);
      // The load generator goes away, and the instance is stopped right after.
      client.abort();
      hub.proc.kill('SIGTERM');
      const code = await Promise.race([hub.exited, sleep(EXIT_BOUND_MS, 'still running', { ref: false })]);
      // 0: drained within SHUTDOWN_TIMEOUT_MS (past it the hub exits 1; a spinning one never).
      expect(code, hub.stderr()).toBe(0);
    } finally {
      await stopInstance(hub);
    }
  });
});
