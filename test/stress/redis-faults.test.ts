import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFile } from '../helpers.js';
import { PrivateRedis } from '../private-redis.js';
import { type Instance, postJson, startInstance, stopInstance } from '../server-process.js';

/**
 * Redis stopped, restarted and slowed under load, against the built server: it keeps
 * answering through the insurance limiter, no request hangs past its bound, /readyz
 * and the metrics say degraded, and it returns to Redis by itself.
 */
const redis = new PrivateRedis();
let hub: Instance | undefined;
const BOUND_MS = 2000; // command timeout 200 ms + a run + a loaded machine's margin

beforeAll(async () => {
  await redis.start();
  const file = await policyFile({
    // A budget no loaded machine spends: the load's worker time must not decide its answers.
    tools: { 'token-counter': { limit: 1_000_000, maxInFlightPerClient: 64, computeBudgetMs: 1e12 } },
  });
  hub = await startInstance({ REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: '200', POLICY_FILE: file });
  // The bound is about Redis, not about a worker's first run of the tokenizer (it builds
  // its tables): warm the workers the load will use.
  for (let i = 0; i < 3; i++) {
    await Promise.all(
      Array.from({ length: 8 }, () =>
        postJson(`${hub!.base}/api/tools/run/`, { toolId: 'token-counter', input: { a: 'warm' } }),
      ),
    );
  }
});
afterAll(async () => {
  await stopInstance(hub);
  await redis.stop();
});

/** Runs `concurrency` request loops until `stop()` is called; records every answer. */
function load(concurrency: number) {
  const answers: { status: number; ms: number; code?: unknown; error?: unknown }[] = [];
  let running = true;
  const loops = Array.from({ length: concurrency }, async () => {
    while (running) {
      const res = await postJson(`${hub!.base}/api/tools/run/`, {
        toolId: 'token-counter',
        input: { a: 'load' },
      });
      answers.push(
        res.status === 200
          ? { status: res.status, ms: res.ms }
          : { status: res.status, ms: res.ms, code: res.body.errorCode, error: res.body.error },
      );
    }
  });
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const readyz = async () => (await (await fetch(`${hub!.base}/readyz`)).json()) as { limiterStore: string };
const metric = async (name: string) => {
  const text = await (await fetch(`${hub!.base}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => l.startsWith(name))
      ?.split(' ')
      .pop() ?? Number.NaN,
  );
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Redis faults under load', () => {
  it('stopped: keeps serving degraded; restarted: returns to Redis by itself', async () => {
    const traffic = load(8);
    await pause(500);
    await redis.stop();
    await pause(1500);
    expect((await readyz()).limiterStore).toBe('degraded');
    expect(await metric('toolhub_limiter_store_degraded')).toBe(1);
    await redis.start();
    await expect
      .poll(async () => (await readyz()).limiterStore, { timeout: 20_000, interval: 250 })
      .toBe('redis');
    await pause(500);
    await traffic.stop();
    expect(traffic.answers.length).toBeGreaterThan(50);
    expect(traffic.answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...traffic.answers.map((a) => a.ms))).toBeLessThan(BOUND_MS);
    expect(await metric('toolhub_limiter_fallbacks_total')).toBeGreaterThan(0);
    const client = new Redis(redis.url);
    try {
      expect((await client.keys('toolhub:lim:{*}:token-counter')).length).toBe(1);
    } finally {
      client.disconnect();
    }
  });

  it('slowed (DEBUG SLEEP): no request waits for it past its bound', async () => {
    await expect
      .poll(async () => (await readyz()).limiterStore, { timeout: 20_000, interval: 250 })
      .toBe('redis');
    const traffic = load(8);
    await pause(300);
    const sleeper = new Redis(redis.url);
    const slept = sleeper.call('DEBUG', 'SLEEP', '3');
    await pause(1000);
    expect((await readyz()).limiterStore).toBe('degraded');
    await slept;
    sleeper.disconnect();
    await expect
      .poll(async () => (await readyz()).limiterStore, { timeout: 20_000, interval: 250 })
      .toBe('redis');
    await traffic.stop();
    expect(traffic.answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(Math.max(...traffic.answers.map((a) => a.ms))).toBeLessThan(BOUND_MS);
  });
});
