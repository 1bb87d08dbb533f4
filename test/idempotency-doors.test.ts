/**
 * Idempotency-Key on every POST that runs tools (docs/api.md, "Idempotency-Key"), with the
 * draft's semantics, on a real Redis and without one: a retry replays the first answer
 * without running or charging again (the caller's usage says so), another request under the
 * same key is 422, a retry while the first runs is 409, and keys are per caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeysFile,
  buildTestApp,
  errorBody,
  PATIENT,
  PATIENT_FIXTURES,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';

const KEYS = [
  { id: 'alice', key: 'alice-key-0123456789' },
  { id: 'bob', key: 'bob-key-0123456789' },
];
const bearer = (i: number) => ({ authorization: `Bearer ${KEYS[i]!.key}` });
let shared: TestApp;
let bare: TestApp;

beforeAll(async () => {
  await requireRedis();
  const file = await apiKeysFile(KEYS);
  const POLICY_FILE = await policyFile(PATIENT_FIXTURES);
  shared = await buildTestApp({
    REDIS_URL,
    REDIS_PREFIX: redisPrefix(),
    ...PATIENT,
    API_KEYS_FILE: file,
    POLICY_FILE,
  });
  bare = await buildTestApp({ API_KEYS_FILE: file, POLICY_FILE });
}, 60_000);
afterAll(async () => {
  await shared?.close();
  await bare?.close();
});

const used = async (a: TestApp, who = 0) => {
  const usage = JSON.parse((await a.inject({ url: '/api/usage', headers: bearer(who) })).body);
  return usage.tools['fx-echo'].rate.used as number;
};

async function jobFinished(a: TestApp, location: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const { state } = JSON.parse((await a.inject({ url: location, headers: bearer(0) })).body);
    if (state === 'succeeded' || state === 'failed') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${location} did not finish`);
}

/** The doors that run tools on POST, each with a body that runs fx-echo once. */
const DOORS = [
  {
    door: 'generic runtime',
    url: '/api/tools/run/',
    body: (t: string) => ({ toolId: 'fx-echo', input: { a: t } }),
  },
  { door: 'dedicated endpoint', url: '/api/fx-echo/', body: (t: string) => ({ text: t }) },
  {
    door: 'batch request',
    url: '/api/tools/batch/',
    body: (t: string) => ({ runs: [{ toolId: 'fx-echo', input: { a: t } }] }),
  },
  { door: 'jobs', url: '/api/jobs/', body: (t: string) => ({ toolId: 'fx-echo', input: { a: t } }) },
  {
    door: 'ad hoc pipeline',
    url: '/api/pipelines/run',
    body: (t: string) => ({ steps: [{ toolId: 'fx-echo', input: { text: t } }] }),
  },
];

describe.each([
  ['on Redis', () => shared, true],
  ['in memory (no Redis)', () => bare, false],
])('Idempotency-Key %s', (_where, app, redis) => {
  for (const { door, url, body } of DOORS) {
    if (door === 'jobs' && !redis) continue; // jobs need Redis (test/jobs.test.ts)
    it(`replays the first answer on the ${door}, without running or charging again`, async () => {
      const key = `replay-${door}-${Math.random()}`;
      const post = (text: string, who = 0) =>
        app().inject({
          method: 'POST',
          url,
          headers: { ...bearer(who), 'idempotency-key': key },
          payload: body(text),
        });
      const before = await used(app());
      const first = await post('same');
      expect(first.statusCode).toBeLessThan(300);
      const again = await post('same');
      expect(again.statusCode).toBe(first.statusCode);
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.headers.location).toBe(first.headers.location);
      expect(again.headers.ratelimit).toBeUndefined();
      // Charged once: the replay neither ran nor counted (a job counts when it has run).
      if (door === 'jobs') await jobFinished(app(), first.headers.location as string);
      expect((await used(app())) - before).toBe(1);
      const other = await post('different');
      expect(other.statusCode).toBe(422);
      expect(errorBody(other)).toMatchObject({ errorCode: 'INVALID_INPUT' });
      expect(errorBody(other).error).toContain('used with another request');
      // Another caller's equal key is another key: it runs.
      const bobs = await post('same', 1);
      expect(bobs.headers['idempotent-replayed']).toBeUndefined();
      expect(bobs.statusCode).toBe(first.statusCode);
    });
  }

  it('answers 409 with Retry-After while the first request is still running', async () => {
    const headers = { ...bearer(0), 'idempotency-key': `inflight-${Math.random()}` };
    const send = () =>
      app().inject({
        method: 'POST',
        url: '/api/tools/run/',
        headers,
        payload: { toolId: 'fx-sleep', input: { a: '250' } },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const conflict = a.statusCode === 409 ? a : b;
    expect(errorBody(conflict)).toMatchObject({ errorCode: 'CONCURRENCY_LIMIT' });
    expect(conflict.headers['retry-after']).toBe('1');
    // Once it has answered, the retry replays it.
    const later = await send();
    expect(later.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a malformed key with 400 before anything runs', async () => {
    const res = await app().inject({
      method: 'POST',
      url: '/api/tools/run/',
      headers: { ...bearer(0), 'idempotency-key': 'x'.repeat(300) },
      payload: { toolId: 'fx-echo', input: { a: 'x' } },
    });
    expect(res.statusCode).toBe(400);
    expect(errorBody(res).error).toContain('Idempotency-Key must be 1 to 255');
  });
});
