import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFile, REDIS_URL, redisPrefix, requireRedis } from '../helpers.js';
import { type Instance, postJson, startInstance, stopInstance } from '../server-process.js';

/** Two built instances on one Redis keep every limit exact under concurrent load. */
let one: Instance | undefined;
let two: Instance | undefined;
const evil = { a: '^(a|a)+$', b: `${'a'.repeat(40)}!`, c: 'u', mode: 'test' };

beforeAll(async () => {
  await requireRedis();
  const file = await policyFile({
    tools: {
      'qr-code': { limit: 20, burst: 5, maxInFlightPerClient: 1000, maxInFlight: 1000 },
      'regex-tester': { maxInFlightPerClient: 2, computeBudgetMs: 1_000_000 },
    },
  });
  // A loaded machine must not push commands past the timeout into the per-instance
  // insurance store (where limits are per instance by design): give Redis time.
  const env = {
    REDIS_URL,
    REDIS_PREFIX: redisPrefix(),
    POLICY_FILE: file,
    POOL_THREADS: '2',
    REDIS_COMMAND_TIMEOUT_MS: '3000',
    // Runs past the cap are refused at once here: the test counts what is admitted together.
    CAP_WAIT_MS: '0',
  };
  [one, two] = await Promise.all([startInstance(env), startInstance(env)]);
});
afterAll(async () => {
  await Promise.all([stopInstance(one), stopInstance(two)]);
});

const fallbacks = async (i: Instance) => {
  const text = await (await fetch(`${i.base}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('toolhub_limiter_fallbacks_total{'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
};
const both = (n: number) => Array.from({ length: n }, (_, i) => (i % 2 ? two! : one!).base);

describe('replicas under concurrent load', () => {
  it('rate limit: exactly limit + burst of 60 concurrent requests succeed', async () => {
    for (const i of [one!, two!]) expect(await fallbacks(i)).toBe(0);
    const answers = await Promise.all(
      both(60).map((base) =>
        postJson(`${base}/api/tools/run/`, { toolId: 'qr-code', input: { a: 'x', mode: 'utf8' } }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(35);
    for (const i of [one!, two!]) expect(await fallbacks(i)).toBe(0);
  });

  it('per-client concurrency: exactly the cap of simultaneous slow runs is admitted', async () => {
    const answers = await Promise.all(
      both(10).map((base) => postJson(`${base}/api/tools/run/`, { toolId: 'regex-tester', input: evil })),
    );
    const codes = answers.map((a) => a.body.errorCode);
    expect(codes.filter((c) => c === 'TIMEOUT')).toHaveLength(2);
    expect(codes.filter((c) => c === 'CONCURRENCY_LIMIT')).toHaveLength(8);
  });

  it('compute budget: shared, so the third heavy run on either instance is refused', async () => {
    // Each catastrophic run is charged its 1000 ms deadline: the budget of 1500 ms admits
    // two runs (the second starts with 1000 ms spent), whichever instance serves them.
    const slow = { toolId: 'regex-tester', input: evil };
    const file = await policyFile({
      tools: { 'regex-tester': { computeBudgetMs: 1500, maxInFlightPerClient: 4 } },
    });
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      POLICY_FILE: file,
      POOL_THREADS: '2',
      REDIS_COMMAND_TIMEOUT_MS: '3000',
    };
    const [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
    try {
      const first = await postJson(`${a.base}/api/tools/run/`, slow);
      const second = await postJson(`${b.base}/api/tools/run/`, slow);
      const third = await postJson(`${a.base}/api/tools/run/`, slow);
      const fourth = await postJson(`${b.base}/api/tools/run/`, slow);
      expect([first, second, third, fourth].map((r) => r.body.errorCode)).toEqual([
        'TIMEOUT',
        'TIMEOUT',
        'BUDGET_EXCEEDED',
        'BUDGET_EXCEEDED',
      ]);
    } finally {
      await Promise.all([stopInstance(a), stopInstance(b)]);
    }
  });
});
