/**
 * Memory admission with the Kubernetes settings (deploy/kubernetes: POOL_THREADS=2,
 * PRESSURE_MAX_RSS_BYTES=900000000, a 1 GiB pod): five concurrent 4 MB batches of heavy
 * conversions from one address must keep the process's peak resident memory (VmHWM)
 * under the pod's limit, every refusal being CONCURRENCY_LIMIT with Retry-After
 * (docs/operations.md, "Memory admission"). A real process; the peak is the kernel's.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

const POD_LIMIT = 1024 * 1024 * 1024;

/** A JSON document of about `bytes` bytes: many small records, costly to convert. */
function document(bytes: number): string {
  const rows: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const row = JSON.stringify({
      id: i,
      name: `item ${i}`,
      tags: ['a', 'b', 'c'],
      nested: { x: i, y: `v${i}` },
    });
    rows.push(row);
    size += row.length + 1;
  }
  return `[${rows.join(',')}]`;
}

function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib * 1024;
}

let hub: Instance;
beforeAll(async () => {
  hub = await startInstance({ POOL_THREADS: '2', PRESSURE_MAX_RSS_BYTES: '900000000', REFUSAL_LIMIT: '0' });
});
afterAll(async () => {
  await stopInstance(hub);
});

describe('memory admission with the deploy settings', () => {
  it('keeps five concurrent 4 MB batches of conversions under the pod limit', async () => {
    // As many 400 kB conversions as fit a 4 MB body (the input is escaped inside the JSON).
    const run = { toolId: 'format-detective', mode: 'convert', a: document(400_000), b: 'yaml' };
    const one = JSON.stringify(run).length;
    const runs = Array.from({ length: Math.floor(4_000_000 / (one + 1)) }, () => run);
    const body = JSON.stringify({ runs });
    expect(body.length).toBeGreaterThan(3_000_000);
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await fetch(`${hub.base}/api/tools/batch/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const json = (await res.json()) as {
          results?: { ok: boolean; errorCode?: string }[];
          errorCode?: string;
        };
        return { status: res.status, retryAfter: res.headers.get('retry-after'), json };
      }),
    );
    const peak = peakRss(hub.proc.pid!);
    expect(peak, `peak RSS ${Math.round(peak / 2 ** 20)} MiB`).toBeLessThan(POD_LIMIT);
    let ran = 0;
    for (const a of answers) {
      if (a.status === 200) {
        for (const item of a.json.results ?? []) {
          if (item.ok) ran++;
          else expect(item.errorCode).toBe('CONCURRENCY_LIMIT');
        }
      } else {
        expect([429, 503]).toContain(a.status);
        expect(a.json.errorCode).toBe('CONCURRENCY_LIMIT');
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
      }
    }
    // Admission delays and refuses, it does not stop the hub from working.
    expect(ran).toBeGreaterThan(0);
    expect((await fetch(`${hub.base}/healthz`)).status).toBe(200);
  });
});
