/**
 * Jobs on a real Redis (docs/api.md, "Jobs" and "Webhooks"): a run and a batch run as jobs
 * answer what the synchronous call answers; a job is its submitter's alone; cancel; a
 * webhook is signed (verified with the `standardwebhooks` library, both secrets while
 * rotating), retried after a 5xx and after Retry-After, stopped by 410; an address that is
 * not public is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysFile,
  buildTestApp,
  errorBody,
  failedReasonOf,
  metricValue,
  PATIENT,
  PATIENT_FIXTURES,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';
import { newSecret, type Receiver, startReceiver } from './webhook-receiver.js';

const SECRET = newSecret();
const NEXT_SECRET = newSecret();
const KEYS = [
  { id: 'alice', key: 'alice-key-0123456789' },
  { id: 'bob', key: 'bob-key-0123456789' },
];
const as = (who: 'alice' | 'bob') => ({ authorization: `Bearer ${KEYS.find((k) => k.id === who)!.key}` });

let app: TestApp;
let idle: TestApp;
let receiver: Receiver;

/** Polls the job until `done` says so (a bounded number of reads, never a wall-clock assertion). */
async function until(
  a: TestApp,
  location: string,
  headers: Record<string, string>,
  done: (v: Job) => boolean,
  reads = 1200,
) {
  for (let i = 0; i < reads; i++) {
    const res = await a.inject({ url: location, headers });
    const view = JSON.parse(res.body) as Job;
    if (done(view)) return explained(view);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${location} never got there`);
}
let prefix = '';
/** A failed job carries why into the assertion's message (its answer, and BullMQ's reason). */
async function explained(view: Job): Promise<Job> {
  if (view.state === 'failed') {
    const why = await failedReasonOf(prefix, view.id);
    console.error(`job ${view.id} failed: ${JSON.stringify(view.answer)} ${why ?? ''}`);
  }
  return view;
}
interface Job {
  id: string;
  state: string;
  attempts: number;
  answer?: { status: number; body: Record<string, unknown> };
  webhook?: { state: string; attempts: { status?: number; at: string }[] };
}
const finished = (v: Job) => ['succeeded', 'failed', 'cancelled'].includes(v.state);

beforeAll(async () => {
  await requireRedis();
  const file = await apiKeysFile(KEYS);
  // Both keys sign with SECRET; alice's key is mid-rotation and signs with NEXT_SECRET too.
  const { readFileSync, writeFileSync } = await import('node:fs');
  const keys = JSON.parse(readFileSync(file, 'utf8'));
  keys.keys[0].webhookSecrets = [SECRET, NEXT_SECRET];
  keys.keys[1].webhookSecrets = [SECRET];
  writeFileSync(file, JSON.stringify(keys));
  prefix = redisPrefix();
  const env = {
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ...PATIENT,
    API_KEYS_FILE: file,
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true',
    WEBHOOK_RETRY_BASE_MS: '100',
    // A thousand runs of fx-echo in one batch job, and the other tests' runs: past its 1,000 a minute.
    // and a loaded machine must not turn a run into a TIMEOUT.
    POLICY_FILE: await policyFile(PATIENT_FIXTURES),
  };
  app = await buildTestApp(env);
  // An instance that takes no jobs: what it queues stays queued.
  idle = await buildTestApp({ ...env, REDIS_PREFIX: redisPrefix(), JOBS_CONCURRENCY: '0' });
  receiver = await startReceiver(
    [SECRET, NEXT_SECRET],
    (n, id) => receiverPlan.get(id)?.(n) ?? { status: 204 },
  );
}, 60_000);

afterAll(async () => {
  await app?.close();
  await idle?.close();
  await receiver?.close();
});

const receiverPlan = new Map<string, (n: number) => { status: number; headers?: Record<string, string> }>();

const submit = (a: TestApp, body: object, who: 'alice' | 'bob' = 'alice') =>
  a.inject({ method: 'POST', url: '/api/jobs/', headers: as(who), payload: body });

describe('a job', () => {
  it('answers 202 with Location, then what the synchronous run answers', async () => {
    const body = { toolId: 'fx-echo', input: { a: 'hello jobs' } };
    const res = await submit(app, body);
    expect(res.statusCode).toBe(202);
    const location = res.headers.location as string;
    expect(location).toMatch(/^\/api\/jobs\/job_[A-Za-z0-9_-]{24}$/);
    expect(JSON.parse(res.body).state).toMatch(/^(queued|running)$/);
    const done = await until(app, location, as('alice'), finished);
    expect(done.state).toBe('succeeded');
    const sync = await app.inject({
      method: 'POST',
      url: '/api/tools/run/',
      headers: as('alice'),
      payload: body,
    });
    expect(done.answer!.status).toBe(sync.statusCode);
    expect(done.answer!.body.result).toEqual(JSON.parse(sync.body).result);
    expect((done.answer!.body.runtime as { surface: string }).surface).toBe('job');
  });

  it('refuses a bad request at once, as the synchronous call would', async () => {
    const unknown = await submit(app, { toolId: 'no-such-tool', input: { a: 'x' } });
    expect(errorBody(unknown).errorCode).toBe('INVALID_INPUT');
    const tooBig = await submit(app, { toolId: 'fx-echo', input: { a: 'x'.repeat(5000) } });
    expect(errorBody(tooBig).errorCode).toBe('INPUT_TOO_LARGE');
    const runs = Array.from({ length: 1001 }, () => ({ toolId: 'fx-echo', input: { a: 'x' } }));
    const over = await submit(app, { runs });
    expect(over.statusCode).toBe(413);
    expect(errorBody(over).error).toContain('at most 1000 runs');
  });

  it('runs a batch of 1,000 as one job, each run answered in its place', async () => {
    const runs = Array.from({ length: 1000 }, (_, i) =>
      i === 7
        ? { toolId: 'no-such-tool', input: { a: 'x' } }
        : { toolId: 'fx-echo', input: { a: `run ${i}` } },
    );
    const res = await submit(app, { runs });
    expect(res.statusCode).toBe(202);
    const done = await until(app, res.headers.location as string, as('alice'), finished, 4000);
    expect(done.state).toBe('succeeded');
    const results = done.answer!.body.results as { ok: boolean; errorCode?: string; result?: unknown }[];
    expect(results).toHaveLength(1000);
    expect(results[7]).toMatchObject({ ok: false, errorCode: 'INVALID_INPUT' });
    expect(results.filter((r) => r.ok)).toHaveLength(999);
  }, 300_000);

  it('is visible only to the key that submitted it: read, cancel and list', async () => {
    const res = await submit(idle, { toolId: 'fx-echo', input: { a: 'mine' } }, 'alice');
    const location = res.headers.location as string;
    const read = await idle.inject({ url: location, headers: as('bob') });
    expect(read.statusCode).toBe(404);
    const cancel = await idle.inject({ method: 'DELETE', url: location, headers: as('bob') });
    expect(cancel.statusCode).toBe(404);
    const list = JSON.parse((await idle.inject({ url: '/api/jobs/', headers: as('bob') })).body);
    expect(list.jobs.map((j: Job) => j.id)).not.toContain(location.split('/').pop());
    const own = JSON.parse((await idle.inject({ url: '/api/jobs/', headers: as('alice') })).body);
    expect(own.jobs.map((j: Job) => j.id)).toContain(location.split('/').pop());
    const noKey = await idle.inject({ url: location });
    expect(noKey.statusCode).toBe(401);
  });

  it('is cancelled while queued, answers the same on a second cancel, and a finished one is 409', async () => {
    const res = await submit(idle, { toolId: 'fx-echo', input: { a: 'never' } });
    const location = res.headers.location as string;
    const first = await idle.inject({ method: 'DELETE', url: location, headers: as('alice') });
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body).state).toBe('cancelled');
    const again = await idle.inject({ method: 'DELETE', url: location, headers: as('alice') });
    expect(JSON.parse(again.body).state).toBe('cancelled');
    const ran = await submit(app, { toolId: 'fx-echo', input: { a: 'done' } });
    await until(app, ran.headers.location as string, as('alice'), finished);
    const late = await app.inject({
      method: 'DELETE',
      url: ran.headers.location as string,
      headers: as('alice'),
    });
    expect(late.statusCode).toBe(409);
    expect(errorBody(late).error).toContain('has finished (succeeded)');
  });
});

describe('Prefer: respond-async', () => {
  it('makes the generic runtime and the batch POST a job, and says so', async () => {
    for (const [url, body] of [
      ['/api/tools/run/', { toolId: 'fx-echo', input: { a: 'later please' } }],
      ['/api/tools/batch/', { runs: [{ toolId: 'fx-echo', input: { a: 'later please' } }] }],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { ...as('alice'), prefer: 'respond-async, wait=0' },
        payload: body,
      });
      expect(res.statusCode, url).toBe(202);
      expect(res.headers['preference-applied']).toBe('respond-async');
      const done = await until(app, res.headers.location as string, as('alice'), finished);
      expect(done.state).toBe('succeeded');
    }
  });
});

describe('a webhook', () => {
  it('is signed with both secrets while one rotates, and retried after a 5xx until a 2xx', async () => {
    const res = await submit(app, { toolId: 'fx-echo', input: { a: 'tell me' }, callbackUrl: receiver.url });
    const id = JSON.parse(res.body).id as string;
    receiverPlan.set(`msg_${id}`, (n) => ({ status: n === 1 ? 500 : 200 }));
    const done = await until(
      app,
      res.headers.location as string,
      as('alice'),
      (v) => v.webhook?.state === 'delivered',
    );
    expect(done.webhook!.attempts.map((a) => a.status)).toEqual([500, 200]);
    const mine = receiver.received.filter((r) => r.id === `msg_${id}`);
    expect(mine).toHaveLength(2);
    for (const r of mine) expect(r.verifiedBy).toEqual([0, 1]);
    expect(mine[0]!.body).toBe(mine[1]!.body);
    const payload = JSON.parse(mine[1]!.body);
    expect(payload).toMatchObject({ type: 'job.succeeded', data: { id, state: 'succeeded' } });
    expect(payload.data.answer.body.result).toBeDefined();
  });

  it("waits the receiver's Retry-After, and stops at 410 Gone", async () => {
    const wait = await submit(
      app,
      { toolId: 'fx-echo', input: { a: 'later' }, callbackUrl: receiver.url },
      'bob',
    );
    const waitId = JSON.parse(wait.body).id as string;
    receiverPlan.set(`msg_${waitId}`, (n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    const gone = await submit(
      app,
      { toolId: 'fx-echo', input: { a: 'gone' }, callbackUrl: receiver.url },
      'bob',
    );
    const goneId = JSON.parse(gone.body).id as string;
    receiverPlan.set(`msg_${goneId}`, () => ({ status: 410 }));
    const waited = await until(
      app,
      wait.headers.location as string,
      as('bob'),
      (v) => v.webhook?.state === 'delivered',
    );
    const [a, b] = waited.webhook!.attempts;
    expect(Date.parse(b!.at) - Date.parse(a!.at)).toBeGreaterThanOrEqual(1000);
    const stopped = await until(
      app,
      gone.headers.location as string,
      as('bob'),
      (v) => v.webhook?.state === 'failed',
    );
    expect(stopped.webhook!.attempts.map((x) => x.status)).toEqual([410]);
    const bobs = receiver.received.filter((r) => r.id === `msg_${waitId}`);
    // bob's key has one secret: one signature, and it verifies.
    expect(bobs[0]!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(bobs[0]!.verifiedBy).toEqual([0]);
  });

  it('refuses a callbackUrl that is not public when private addresses are not allowed', async () => {
    const strict = await buildTestApp({
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      WEBHOOK_SECRET: SECRET,
      JOBS_CONCURRENCY: '0',
    });
    try {
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://localhost/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::ffff:10.0.0.1]/',
        'http://[fd00::1]/',
        'http://100.64.0.1/',
        'ftp://example.com/',
        'http://user:pw@example.com/',
      ]) {
        const res = await submit(strict, { toolId: 'fx-echo', input: { a: 'x' }, callbackUrl: url });
        expect(res.statusCode, url).toBe(400);
        expect(errorBody(res).error, url).toMatch(/callbackUrl/);
      }
    } finally {
      await strict.close();
    }
  });
});

describe('the metrics', () => {
  it('report the backlog by its oldest job, and jobs and webhook attempts by outcome', async () => {
    const first = await submit(idle, { toolId: 'fx-echo', input: { a: 'old' } });
    expect(first.statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 1200));
    await submit(idle, { toolId: 'fx-echo', input: { a: 'new' } });
    expect(await metricValue(idle, 'toolhub_jobs_queued')).toBeGreaterThanOrEqual(2);
    // The oldest is the first one, at least 1.2 s old (the newest would be a few ms).
    expect(await metricValue(idle, 'toolhub_jobs_oldest_queued_age_seconds')).toBeGreaterThanOrEqual(1.2);
    expect(await metricValue(app, 'toolhub_jobs_finished_total{outcome="succeeded"}')).toBeGreaterThan(0);
    expect(await metricValue(app, 'toolhub_webhook_attempts_total{outcome="delivered"}')).toBeGreaterThan(0);
    expect(await metricValue(app, 'toolhub_webhook_attempts_total{outcome="failed"}')).toBeGreaterThan(0);
  });
});

describe('without a Redis', () => {
  it('answers 503 RUNTIME_DISABLED, saying why', async () => {
    const bare = await buildTestApp();
    try {
      const res = await bare.inject({
        method: 'POST',
        url: '/api/jobs/',
        payload: { toolId: 'fx-echo', input: { a: 'x' } },
      });
      expect(res.statusCode).toBe(503);
      expect(errorBody(res)).toMatchObject({ errorCode: 'RUNTIME_DISABLED' });
      expect(errorBody(res).error).toContain("jobs need the hub's Redis");
    } finally {
      await bare.close();
    }
  });
});
