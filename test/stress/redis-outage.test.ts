import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeysFile, freePort, policyFile } from '../helpers.js';
import { PrivateRedis } from '../private-redis.js';
import { type Instance, startInstance, stopInstance } from '../server-process.js';

/**
 * Limits through a Redis outage, on real processes (docs/operations.md, "Redis and its failure
 * modes", where the bounds these tests hold are written down).
 */
const TOOL = 'token-counter';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** One run of the tool with `headers`; its status. */
async function run(base: string, headers: Record<string, string>, i: number): Promise<number> {
  const res = await fetch(`${base}/api/tools/run/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ toolId: TOOL, a: `run ${i}` }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** `n` runs one after another; their statuses. */
async function runs(base: string, headers: Record<string, string>, n: number, from = 0): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await run(base, headers, from + i));
  return out;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('a key with a day quota, two hubs on one Redis, Redis paused mid-quota', () => {
  const priv = new PrivateRedis();
  const hubs: Instance[] = [];
  let admin: Redis | undefined;
  beforeAll(async () => {
    await priv.start();
    admin = new Redis(priv.url);
    const keys = await apiKeysFile([{ id: 'team', key: 'k-team', tier: 'day10' }], {
      day10: { multiplier: 1, quota: { runsPerDay: 10 } },
    });
    // The rate limit out of the way: the quota is the limit here.
    const policy = await policyFile({ tools: { [TOOL]: { limit: 1000, maxInFlightPerClient: 20 } } });
    const env = { REDIS_URL: priv.url, API_KEYS_FILE: keys, POLICY_FILE: policy };
    for (let i = 0; i < 2; i++) hubs.push(await startInstance(env));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(hubs.map((h) => stopInstance(h)));
    admin?.disconnect();
    await priv.stop();
  });

  it('admits at most what each hub last knew was left, and Redis is charged with it after', async () => {
    const key = bearer('k-team');
    const [a, b] = [hubs[0]!.base, hubs[1]!.base];
    // 7 runs, every other on each hub: hub a last saw 6 used (its third run was the sixth),
    // hub b 7.
    const before: number[] = [];
    for (let i = 0; i < 7; i++) before.push(await run(i % 2 === 0 ? b : a, key, i));
    expect(before).toEqual(Array(7).fill(200));
    const pauseMs = 6000;
    const ends = Date.now() + pauseMs;
    await admin!.call('CLIENT', 'PAUSE', String(pauseMs), 'ALL');
    const [onA, onB] = await Promise.all([runs(a, key, 15, 100), runs(b, key, 15, 200)]);
    const during = [...onA, ...onB];
    // Each hub's insurance starts from what it last knew: 10 - 6 on a, 10 - 7 on b (before the
    // change, each started at 0: 20 of the 30 admitted).
    expect(Date.now(), 'the 30 runs were answered within the pause').toBeLessThan(ends);
    expect(count(onA, 200), JSON.stringify(onA)).toBe(4);
    expect(count(onB, 200), JSON.stringify(onB)).toBe(3);
    expect(count(during, 429)).toBe(23);
    // Redis answers again: every run from now on is refused (the quota is spent there, with
    // what the hubs admitted during the pause), and /api/usage says how many ran: 7 + 4 + 3.
    await new Promise((r) => setTimeout(r, ends - Date.now() + 100));
    const after: number[] = [];
    for (let i = 0; i < 10; i++) {
      after.push(await run(i % 2 === 0 ? a : b, key, 300 + i));
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(after).toEqual(Array(10).fill(429));
    for (const hub of [a, b]) {
      const usage = (await (await fetch(`${hub}/api/usage`, { headers: key })).json()) as {
        store: string;
        quota: { day: { runs: { used: number } } };
      };
      expect(usage.store).toBe('redis');
      expect(usage.quota.day.runs.used).toBe(14);
    }
  }, 120_000);
});

describe('HUB_PROCESSES=2 with Redis out of reach', () => {
  let box: Instance | undefined;
  beforeAll(async () => {
    const policy = await policyFile({ tools: { [TOOL]: { limit: 80, burst: 0, maxInFlightPerClient: 20 } } });
    // A port nothing listens on: the box boots on the insurance limiter.
    box = await startInstance(
      { HUB_PROCESSES: '2', REDIS_URL: `redis://127.0.0.1:${await freePort()}`, POLICY_FILE: policy },
      { degraded: true },
    );
  }, 120_000);
  afterAll(async () => {
    await stopInstance(box);
  });

  it('admits one instance’s policy, not one per process', async () => {
    // 160 runs over fresh connections, 8 at a time, spread over both processes.
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: 8 }, (_, j) => run(box!.base, { connection: 'close' }, i * 8 + j)),
        )),
      );
    // Each process admits its 40 of the 80 (before: 80 each, 160 in all).
    expect(count(statuses, 200) + count(statuses, 429)).toBe(160);
    expect(count(statuses, 200)).toBeLessThanOrEqual(80);
    expect(count(statuses, 200)).toBeGreaterThan(40);
    const readiness = (await (await fetch(`${box!.base}/readyz`)).json()) as { limiterStore: string };
    expect(readiness.limiterStore).toBe('degraded');
  }, 120_000);
});
