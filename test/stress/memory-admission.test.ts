/**
 * Memory admission with the Kubernetes settings (deploy/kubernetes: POOL_THREADS=2,
 * PRESSURE_MAX_RSS_BYTES=900000000, a 1 GiB pod; docs/operations.md, "Memory admission"):
 * five concurrent 4 MB batches of heavy conversions, from one address and from five, keep
 * the process's peak resident memory (VmHWM, the kernel's own figure) under the pod's limit
 * with a margin, and every refusal is CONCURRENCY_LIMIT with Retry-After. Before admission
 * the same load peaked at 1,108 MiB (one address) and 1,114 MiB (five). Real processes,
 * one per case (VmHWM is a process's peak over its life), stopped by PID when a case fails.
 */

import { readFileSync } from 'node:fs';
import { type ClientRequest, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

const MiB = 1024 * 1024;
/** The pod's limit less a tenth: what the peak must stay under. */
const PEAK_BOUND = 0.9 * 1024 * MiB;
const DEPLOY = { POOL_THREADS: '2', PRESSURE_MAX_RSS_BYTES: '900000000', SHUTDOWN_TIMEOUT_MS: '15000' };
/** A run's own bounds, met on a loaded machine by heavy conversions; not memory refusals. */
const RUN_BOUNDS = ['TIMEOUT', 'BUDGET_EXCEEDED'];

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

/**
 * As many 0.5 MB conversions to XML (1 MB results each) as fit a 4 MB body (the input is
 * escaped in the JSON): on the code before admission the five batches peaked at ~1.1 GiB.
 */
function heavyBatch(): string {
  const run = { toolId: 'format-detective', mode: 'convert', a: document(500_000), b: 'xml' };
  const one = JSON.stringify(run).length;
  return JSON.stringify({ runs: Array.from({ length: Math.floor(4_000_000 / (one + 1)) }, () => run) });
}

function peakRss(pid: number): number {
  const kib = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kib * 1024;
}

async function withHub(env: Record<string, string>, body: (hub: Instance) => Promise<void>): Promise<void> {
  let hub: Instance | undefined;
  try {
    hub = await startInstance({ ...DEPLOY, ...env });
    await body(hub);
  } finally {
    await stopInstance(hub);
  }
}

/** Five concurrent heavy batches, from `addresses` clients; checks every answer and the peak. */
async function fiveBatches(hub: Instance, addresses: number): Promise<void> {
  const body = heavyBatch();
  expect(body.length).toBeGreaterThan(3_500_000);
  const answers = await Promise.all(
    Array.from({ length: 5 }, async (_, i) => {
      const res = await fetch(`${hub.base}/api/tools/batch/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${(i % addresses) + 1}` },
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
  let ran = 0;
  for (const a of answers) {
    if (a.status === 200) {
      for (const item of a.json.results ?? []) {
        if (item.ok) ran++;
        else expect(['CONCURRENCY_LIMIT', ...RUN_BOUNDS]).toContain(item.errorCode);
      }
    } else {
      expect([429, 503]).toContain(a.status);
      expect(a.json.errorCode).toBe('CONCURRENCY_LIMIT');
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
  }
  expect(peak, `peak RSS ${Math.round(peak / MiB)} MiB`).toBeLessThan(PEAK_BOUND);
  // Admission delays and refuses; it does not stop the hub from working.
  expect(ran).toBeGreaterThan(0);
  expect((await fetch(`${hub.base}/healthz`)).status).toBe(200);
}

/** A POST declaring a 4 MB body that sends one byte of it; resolves with the refusal, if any. */
function stalledUpload(hub: Instance, client: string): { req: ClientRequest; refused: Promise<Refusal> } {
  const { hostname, port } = new URL(hub.base);
  const req = request({
    host: hostname,
    port,
    method: 'POST',
    path: '/api/tools/batch/',
    headers: { 'content-type': 'application/json', 'content-length': 4_000_000, 'x-forwarded-for': client },
  });
  req.on('error', () => {}); // destroyed at the end on purpose
  const refused = new Promise<Refusal>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], text }));
    });
  });
  req.flushHeaders();
  req.write('{');
  return { req, refused };
}

/** The first `n` answers among `pending` (only refused uploads are answered before their body). */
function refusals(pending: Promise<Refusal>[], n: number): Promise<Refusal[]> {
  const got: Refusal[] = [];
  return new Promise((resolve) => {
    for (const p of pending) {
      p.then((r) => {
        got.push(r);
        if (got.length === n) resolve(got);
      });
    }
  });
}

function expectRefusal(r: Refusal, status: number, retryAfter: string): void {
  expect(r.status, r.text).toBe(status);
  expect(r.retryAfter).toBe(retryAfter);
  expect(JSON.parse(r.text)).toMatchObject({ ok: false, errorCode: 'CONCURRENCY_LIMIT' });
}

interface Refusal {
  status: number;
  retryAfter: string | undefined;
  text: string;
}

describe('memory admission with the deploy settings', () => {
  it('keeps five concurrent 4 MB batches of conversions from one address under the pod limit', async () => {
    await withHub({}, (hub) => fiveBatches(hub, 1));
  }, 300_000);

  it('keeps five concurrent 4 MB batches from five addresses under the pod limit', async () => {
    await withHub({ TRUST_PROXY: 'true' }, (hub) => fiveBatches(hub, 5));
  }, 300_000);

  it('refuses uploads past the budgets before their bodies arrive: 429 per client, 503 per instance', async () => {
    // An exact budget (the derived one depends on the process at rest): a 4 MB body
    // reserves 24 MB, so a client (150 MB) holds 6 uploads and the instance (300 MB) 12.
    const env = { TRUST_PROXY: 'true', MEMORY_BUDGET_BYTES: '300000000' };
    await withHub(env, async (hub) => {
      const uploads: ClientRequest[] = [];
      const send = (client: string, n: number) => {
        const sent = Array.from({ length: n }, () => stalledUpload(hub, client));
        uploads.push(...sent.map((u) => u.req));
        return sent.map((u) => u.refused);
      };
      try {
        // One client, ten uploads: six are admitted (they wait for their bodies), four refused.
        const own = await refusals(send('10.8.0.1', 10), 4);
        for (const r of own) expectRefusal(r, 429, '1');
        // Four more clients, three uploads each: six more fit the instance, six do not.
        const others = ['10.8.0.2', '10.8.0.3', '10.8.0.4', '10.8.0.5'].flatMap((c) => send(c, 3));
        for (const r of await refusals(others, 6)) expectRefusal(r, 503, '2');
      } finally {
        for (const req of uploads) req.destroy();
      }
      expect((await fetch(`${hub.base}/healthz`)).status).toBe(200);
    });
  }, 120_000);
});
