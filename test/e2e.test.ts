/** End to end: the built server as real processes, over real HTTP on loopback, sharing the real Redis. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyFile, REDIS_URL, redisPrefix, requireRedis } from './helpers.js';
import { type Instance, startInstance, stopInstance as stop } from './server-process.js';

const validate = (base: string, schema: object, target: unknown) =>
  fetch(`${base}/api/schema-validator/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ schema, target }),
  });

// `u`-flag patterns (ajv's default) backtrack even with V8's linear-engine fallback.
const catastrophic = { type: 'string', pattern: '^(a|a)+$' };
const evil = JSON.stringify(`${'a'.repeat(48)}!`); // a JSON string: string fields are read as JSON text

describe('end to end: two built servers sharing one Redis', () => {
  let one: Instance | undefined;
  let two: Instance | undefined;

  beforeAll(async () => {
    await requireRedis();
    const file = await policyFile({
      tools: {
        'structured-output-validator': { timeoutMs: 1000 },
        'api-response-mocker': { limit: 5, burst: 3 },
      },
    });
    const env = {
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      POLICY_FILE: file,
      POOL_THREADS: '2',
    };
    [one, two] = await Promise.all([startInstance(env), startInstance(env)]);
  });
  afterAll(async () => {
    await Promise.all([stop(one), stop(two)]);
  });

  it('times out a catastrophic schema pattern while other requests keep succeeding', async () => {
    const bad = validate(one!.base, catastrophic, evil);
    const good: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await validate(one!.base, { type: 'integer' }, i);
      good.push(res.status);
      const body = (await res.json()) as { result: { valid: boolean } };
      expect(body.result?.valid, JSON.stringify(body)).toBe(true);
    }
    expect(good.every((s) => s === 200)).toBe(true);
    const res = await bad;
    expect(res.status).toBe(504);
    const body = (await res.json()) as { runtime: { durationMs: number } };
    expect(body).toMatchObject({ ok: false, errorCode: 'TIMEOUT' });
    expect(body.runtime.durationMs).toBeGreaterThanOrEqual(1000);
    // The replaced worker serves again.
    expect((await validate(one!.base, { type: 'string' }, '"ok"')).status).toBe(200);
  });

  it('allows exactly limit + burst runs to one client across both instances', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const base = i % 2 ? two!.base : one!.base;
      const res = await fetch(
        `${base}/api/tools/run/?toolId=api-response-mocker&a=${encodeURIComponent('{"n":1}')}`,
      );
      statuses.push(res.status);
      await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
  });

  it('drains an in-flight run on SIGTERM, then exits 0 and refuses new connections', async () => {
    const inFlight = validate(two!.base, catastrophic, evil);
    // SIGTERM once the run is in the pool (a fixed sleep would race a loaded machine).
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${two!.base}/readyz`)).json()) as { pool: { inUse: number } }).pool.inUse,
      )
      .toBeGreaterThan(0);
    two!.proc.kill('SIGTERM');
    const res = await inFlight;
    expect(res.status).toBe(504);
    expect(await two!.exited).toBe(0);
    await expect(fetch(`${two!.base}/healthz`)).rejects.toThrow();
  });
});
