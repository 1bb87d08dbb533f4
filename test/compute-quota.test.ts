import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, policyFile, REDIS_URL, redisPrefix, requireRedis, type TestApp } from './helpers.js';

/**
 * A quota of worker ms under concurrency (docs/operations.md, "Quotas"): worker time is
 * charged when a run ends, so a client sending many runs at once used to have all of them
 * admitted while the quota still showed room (300 ms a day ended at 2,467 ms). Each run in
 * flight now reserves its timeout, so the quota is passed by one run at most.
 */
const TIMEOUT_MS = 400;
const QUOTA_MS = 300;

let app: TestApp;
beforeAll(async () => {
  await requireRedis();
  const policy = await policyFile({
    tools: {
      'fx-sleep': {
        limit: 1000,
        maxInFlightPerClient: 16,
        timeoutMs: TIMEOUT_MS,
        quota: { computeMsPerDay: QUOTA_MS },
      },
    },
  });
  app = await buildTestApp({
    REDIS_URL,
    REDIS_PREFIX: redisPrefix(),
    POLICY_FILE: policy,
    CAP_WAIT_MS: '5000',
  });
});
afterAll(async () => {
  await app?.close();
});

describe('a quota of worker ms', () => {
  it('ends past its limit by less than one run however many runs come at once', async () => {
    const sleep = () =>
      app.inject({ method: 'POST', url: '/api/fx-sleep/', payload: { text: '100' } }).then((r) => ({
        status: r.statusCode,
        body: r.json() as {
          errorCode?: string;
          rateLimit?: { scope?: string; quota?: { reservedMs?: number } };
        },
      }));
    const answers = [
      ...(await Promise.all(Array.from({ length: 16 }, sleep))),
      ...(await Promise.all([sleep(), sleep()])),
    ];
    const ran = answers.filter((a) => a.status === 200).length;
    const usage = (await app.inject({ method: 'GET', url: '/api/usage' })).json() as {
      tools: Record<string, { quota?: { day: { computeMs: { used: number } } } }>;
    };
    const used = usage.tools['fx-sleep']!.quota!.day.computeMs.used;
    expect(used, `${ran} runs`).toBeGreaterThanOrEqual(QUOTA_MS);
    expect(used, `${ran} runs`).toBeLessThan(QUOTA_MS + TIMEOUT_MS);
    // The refused were told why: the quota spent, or the room left held by runs in flight.
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(429);
      expect(a.body.rateLimit?.scope).toBe('quota');
    }
    expect(answers.at(-1)!.body.errorCode).toBe('BUDGET_EXCEEDED');
  });
});
