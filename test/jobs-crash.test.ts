/**
 * Jobs outlive the process that holds them (docs/api.md, "Jobs", "What once means"): a hub
 * is SIGKILLed with jobs queued and running; a second hub on the same Redis finishes every
 * one, each with one answer, and every job's webhook (one `webhook-id`) is delivered until
 * the receiver answers 2xx, verified there with the Standard Webhooks library. Real
 * processes, a real Redis, a real receiver on loopback.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { type Instance, startInstance, stopInstance } from './server-process.js';
import { newSecret, type Receiver, startReceiver } from './webhook-receiver.js';

const work = mkdtempSync(join(tmpdir(), 'toolhub-jobs-crash-'));
const SECRET = newSecret();
let first: Instance | undefined;
let second: Instance | undefined;
let receiver: Receiver;
let env: Record<string, string>;

/** A package tool that naps `ms` milliseconds: long enough to be caught running. */
function writeNapPackage(): void {
  const root = join(work, 'app', 'node_modules', 'pk-nap');
  mkdirSync(join(root, 'tools', 'fx-nap'), { recursive: true });
  const toolhub = { manifest: 1, entry: './tools', tools: ['fx-nap'], hub: '>=1.0.0 <2' };
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({ name: 'pk-nap', version: '1.0.0', type: 'module', toolhub }),
  );
  writeFileSync(
    join(root, 'tools', 'fx-nap', 'tool.js'),
    `export default {
  id: 'fx-nap', title: 'Fixture fx-nap', description: 'Test-only: naps ms milliseconds',
  input: { type: 'object', properties: { ms: { type: 'integer', description: 'how long' } }, required: ['ms'], additionalProperties: false },
  output: { type: 'object', additionalProperties: true },
  policy: { limit: 100000, burst: 0, timeoutMs: 20000 },
};
`,
  );
  writeFileSync(
    join(root, 'tools', 'fx-nap', 'run.js'),
    'export default async (input) => { await new Promise((r) => setTimeout(r, input.ms)); return { napped: input.ms, at: Date.now() }; };\n',
  );
}

interface Job {
  id: string;
  state: string;
  attempts: number;
  answer?: { status: number; body: { ok: boolean; result?: { napped: number } } };
  webhook?: { state: string; attempts: { status?: number }[] };
}

const getJob = async (hub: Instance, id: string): Promise<Job> =>
  (await (await fetch(`${hub.base}/api/jobs/${id}`)).json()) as Job;

beforeAll(async () => {
  await requireRedis();
  writeNapPackage();
  // Every webhook-id is refused once (a 503), then taken: each is delivered until a 2xx.
  receiver = await startReceiver([SECRET], (n) => ({ status: n === 1 ? 503 : 200 }));
  env = {
    REDIS_URL,
    REDIS_PREFIX: redisPrefix(),
    TOOL_PACKAGES: 'pk-nap',
    TOOL_PACKAGES_DIR: join(work, 'app'),
    WEBHOOK_SECRET: SECRET,
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_BASE_MS: '200',
    JOBS_CONCURRENCY: '2',
    // A held job is taken up 5 s after its process dies (30 s by default).
    JOBS_LOCK_MS: '5000',
  };
  first = await startInstance(env);
}, 120_000);

afterAll(async () => {
  await stopInstance(first);
  await stopInstance(second);
  await receiver?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('a SIGKILL of the hub holding jobs', () => {
  it('loses none: another hub finishes each, once, and delivers each webhook until a 2xx', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${first!.base}/api/jobs/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ toolId: 'fx-nap', input: { a: 4000 }, callbackUrl: receiver.url }),
      });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as Job).id);
    }
    // Two run (JOBS_CONCURRENCY), four wait: kill the hub while that holds.
    let running: string[] = [];
    for (let i = 0; i < 400 && running.length < 2; i++) {
      const views = await Promise.all(ids.map((id) => getJob(first!, id)));
      running = views.filter((v) => v.state === 'running').map((v) => v.id);
      if (running.length < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(running).toHaveLength(2);
    first!.proc.kill('SIGKILL');
    await first!.exited;

    second = await startInstance(env);
    const done = new Map<string, Job>();
    for (let i = 0; i < 1200 && done.size < ids.length; i++) {
      for (const id of ids) {
        if (done.has(id)) continue;
        const view = await getJob(second, id);
        if (view.webhook?.state === 'delivered') done.set(id, view);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done.size).toBe(ids.length);
    for (const id of ids) {
      const view = done.get(id)!;
      expect(view.state).toBe('succeeded');
      expect(view.answer).toMatchObject({ status: 200, body: { ok: true, result: { napped: 4000 } } });
      // The two caught running started again on the second hub; the others ran once.
      expect(view.attempts).toBe(running.includes(id) ? 2 : 1);
      expect(view.webhook!.attempts.map((a) => a.status)).toEqual([503, 200]);
      const deliveries = receiver.received.filter((r) => r.id === `msg_${id}`);
      expect(deliveries.map((d) => d.status)).toEqual([503, 200]);
      for (const d of deliveries) expect(d.verifiedBy).toEqual([0]);
      expect(JSON.parse(deliveries[1]!.body)).toMatchObject({ type: 'job.succeeded', data: { id } });
    }
    // One webhook-id per job, and no delivery for anything else.
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set(ids.map((id) => `msg_${id}`)));
  }, 180_000);
});
