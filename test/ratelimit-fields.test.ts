/**
 * The IETF RateLimit and RateLimit-Policy fields (docs/api.md, "Limit names and the RateLimit
 * headers") on a real Redis, through the app: every limit that applies to a run is listed
 * under its limit name, and a refusal names the limit that refused it, first, with nothing
 * left and the seconds to its window's end, on every door (runtime, dedicated, batch, MCP).
 * The fields are read with a strict Structured Field parser (test/structured-fields.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayEndOf } from '../src/limits/calendar.js';
import {
  apiKeysFile,
  buildTestApp,
  mcpMessage,
  policyFile,
  REDIS_URL,
  redisPrefix,
  requireRedis,
  type TestApp,
} from './helpers.js';
import { type BareItem, parseList } from './structured-fields.js';

const DAILY = 'secret-daily-key-0123456789';
const PLAIN = 'secret-plain-key-0123456789';
const BUSY = 'secret-busy-key-01234567890';
const OTHER = 'secret-other-key-0123456789';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}
interface LimitItem {
  name: string;
  r: number;
  t?: number;
}

/** RateLimit-Policy as name → parameters, in the order sent; every item a String with an Integer `q`. */
function policies(field: unknown): Map<string, Record<string, BareItem>> {
  const out = new Map<string, Record<string, BareItem>>();
  for (const item of parseList(String(field))) {
    expect(typeof item.value).toBe('string');
    expect(Number.isInteger(item.params.q)).toBe(true);
    expect(out.has(item.value as string)).toBe(false);
    out.set(item.value as string, item.params);
  }
  return out;
}

/** RateLimit's items: a String name, an Integer `r` and, where sent, an Integer `t`. */
function limits(field: unknown): LimitItem[] {
  return parseList(String(field)).map((item) => {
    const { r, t } = item.params;
    expect(typeof item.value).toBe('string');
    expect(Number.isInteger(r)).toBe(true);
    if (t !== undefined) expect(Number.isInteger(t)).toBe(true);
    return { name: item.value as string, r: r as number, ...(t === undefined ? {} : { t: t as number }) };
  });
}

/** The seconds of the UTC month that holds `t`, from the calendar itself. */
function monthSeconds(t: number): number {
  const d = new Date(t);
  return (
    (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) -
      Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)) /
    1000
  );
}

/** The seconds to the end of the UTC day, as a window's `t` may read them between `before` and `after`. */
function expectSecondsToDayEnd(t: number | undefined, before: number, after: number): void {
  expect(t).toBeGreaterThanOrEqual(Math.ceil((dayEndOf(after) - after) / 1000));
  // Should the day end between the two instants, the next window is a day long.
  expect(t).toBeLessThanOrEqual(Math.max(Math.ceil((dayEndOf(before) - before) / 1000), 86_400));
}

describe('RateLimit fields on a real Redis', () => {
  let app: TestApp | undefined;
  beforeAll(async () => {
    await requireRedis();
    app = await buildTestApp({
      REDIS_URL,
      REDIS_PREFIX: redisPrefix(),
      // A run past a cap is refused at once, not queued in its line.
      CAP_WAIT_MS: '0',
      API_KEYS_FILE: await apiKeysFile(
        [
          { id: 'k-daily', key: DAILY, tier: 'daily' },
          { id: 'k-plain', key: PLAIN },
          { id: 'k-busy', key: BUSY },
          { id: 'k-other', key: OTHER },
        ],
        { daily: { multiplier: 1, quota: { runsPerDay: 2, computeMsPerMonth: 5_000_000 } } },
      ),
      POLICY_FILE: await policyFile({
        tools: {
          'fx-echo': { limit: 100, burst: 5, quota: { runsPerMonth: 50 } },
          'fx-sleep': { computeBudgetMs: 30, timeoutMs: 30_000, maxInFlightPerClient: 1, maxInFlight: 1 },
          'fx-big': { limit: 1, burst: 0 },
        },
      }),
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });

  /** MCP tools/call of fx-echo on a 2025 revision; `params` added to the call's. */
  const callEcho = (key: string, params: Record<string, unknown> = {}) =>
    app!.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        ...bearer(key),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'fx-echo', arguments: { text: 'x' }, ...params },
      },
    });
  const echo = (key: string, text: string) =>
    app!.inject({ url: `/api/fx-echo/?text=${text}`, headers: bearer(key) }) as Promise<Answer>;

  it('lists every limit of a success and reports the rate limit and the most used quota', async () => {
    const before = Date.now();
    const res = await echo(DAILY, 'one');
    const after = Date.now();
    expect(res.statusCode).toBe(200);
    const listed = policies(res.headers['ratelimit-policy']);
    const month = [monthSeconds(before), monthSeconds(after)];
    expect([...listed.keys()]).toEqual([
      'fx-echo',
      'fx-echo/budget',
      'fx-echo/cap',
      'fx-echo/instance-cap',
      'fx-echo/month/runs',
      '@key/day/runs',
      '@key/month/computeMs',
    ]);
    // The rate limit's q is what a fresh client may make per window: limit + burst.
    expect(listed.get('fx-echo')).toEqual({ q: 105, w: 60 });
    // The fixture's default budget: half its window of worker time.
    expect(listed.get('fx-echo/budget')).toEqual({ q: 30_000, qu: 'worker-ms', w: 60 });
    expect(listed.get('fx-echo/cap')).toEqual({ q: 4, qu: 'concurrent-requests' });
    expect(listed.get('fx-echo/instance-cap')).toEqual({ q: 16, qu: 'concurrent-requests' });
    expect(listed.get('@key/day/runs')).toEqual({ q: 2, w: 86_400 });
    const monthly = listed.get('fx-echo/month/runs')!;
    expect(monthly.q).toBe(50);
    expect(month).toContain(monthly.w);
    expect(listed.get('@key/month/computeMs')).toMatchObject({ q: 5_000_000, qu: 'worker-ms' });
    expect(month).toContain(listed.get('@key/month/computeMs')!.w);

    const [rate, quota, ...rest] = limits(res.headers.ratelimit);
    expect(rest).toEqual([]);
    expect(rate).toMatchObject({ name: 'fx-echo', r: 104 });
    expect(rate!.t).toBeGreaterThan(0);
    expect(rate!.t).toBeLessThanOrEqual(60);
    expect(Number(res.headers['x-ratelimit-remaining'])).toBe(rate!.r);
    // One run of two today is the most used share (1/50 this month, no worker time charged yet).
    expect(quota).toMatchObject({ name: '@key/day/runs', r: 1 });
    expectSecondsToDayEnd(quota!.t, before, after);
  });

  it("refuses a key whose day quota is spent naming the quota, r=0 and t the seconds to the day's end, on every door", async () => {
    expect((await echo(DAILY, 'two')).statusCode).toBe(200);
    const doors: [string, () => Promise<Answer>][] = [
      ['dedicated', () => echo(DAILY, 'three')],
      [
        'runtime',
        () => app!.inject({ url: '/api/tools/run/?toolId=fx-echo&a=three', headers: bearer(DAILY) }),
      ],
    ];
    for (const [door, send] of doors) {
      const before = Date.now();
      const res = await send();
      const after = Date.now();
      expect(res.statusCode, door).toBe(429);
      const [refused, rate, ...rest] = limits(res.headers.ratelimit);
      expect(refused, door).toMatchObject({ name: '@key/day/runs', r: 0 });
      expectSecondsToDayEnd(refused!.t, before, after);
      expect(Number(res.headers['retry-after'])).toBe(refused!.t);
      // The rate limit counted the attempt and says so beside it.
      expect(rate!.name).toBe('fx-echo');
      expect(rate!.r).toBeLessThan(104);
      expect(rest).toEqual([]);
      expect(policies(res.headers['ratelimit-policy']).get('@key/day/runs')).toEqual({ q: 2, w: 86_400 });
      const body = JSON.parse(res.body);
      expect(body.rateLimit).toMatchObject({ scope: 'quota', limitName: '@key/day/runs' });
    }

    // A batch request: one answer for its runs, its fields the fewest left of each limit.
    const batch = await app!.inject({
      method: 'POST',
      url: '/api/tools/batch/',
      headers: bearer(DAILY),
      payload: {
        runs: [
          { toolId: 'fx-echo', a: 'x' },
          { toolId: 'fx-big', a: 'y' },
        ],
      },
    });
    expect(batch.statusCode).toBe(200);
    const items = JSON.parse(batch.body).results as { rateLimit: { limitName?: string } }[];
    expect(items.map((i) => i.rateLimit.limitName)).toEqual(['@key/day/runs', '@key/day/runs']);
    const batchLimits = limits(batch.headers.ratelimit);
    expect(batchLimits[0]).toMatchObject({ name: '@key/day/runs', r: 0 });
    expect(batchLimits.map((l) => l.name).sort()).toEqual(['@key/day/runs', 'fx-big', 'fx-echo']);
    const batchPolicies = policies(batch.headers['ratelimit-policy']);
    expect(batchPolicies.get('@key/day/runs')).toEqual({ q: 2, w: 86_400 });
    expect(batchPolicies.get('fx-big')).toEqual({ q: 1, w: 60 });
    expect(batchPolicies.has('fx-echo/month/runs')).toBe(true);

    // MCP: the refusal's rateLimit block names the quota, and _meta carries the same fields,
    // on the hub's direct answer and on the SDK's (a call with _meta goes to the SDK).
    for (const params of [{}, { _meta: { progressToken: 1 } }]) {
      const res = await callEcho(DAILY, params);
      expect(res.statusCode).toBe(200);
      // The /mcp answer's own fields are the MCP message limit's.
      expect(limits(res.headers.ratelimit)[0]!.name).toBe('@mcp');
      expect(policies(res.headers['ratelimit-policy']).get('@mcp')).toEqual({ q: 1200, w: 60 });
      const result = JSON.parse(mcpMessage(res.body)!).result;
      expect(result.isError).toBe(true);
      expect(result._meta.error.rateLimit).toMatchObject({ scope: 'quota', limitName: '@key/day/runs' });
      const fields = result._meta.rateLimitFields;
      expect(limits(fields.RateLimit)[0]).toMatchObject({ name: '@key/day/runs', r: 0 });
      expect(policies(fields['RateLimit-Policy']).get('@key/day/runs')).toEqual({ q: 2, w: 86_400 });
    }
  });

  it('gives an MCP success its rateLimit block and fields, as HTTP gives them', async () => {
    const res = await callEcho(PLAIN);
    const result = JSON.parse(mcpMessage(res.body)!).result;
    expect(result.isError).toBeUndefined();
    expect(result._meta.rateLimit).toMatchObject({ limit: 100, burst: 5, remaining: 104, retryAfterSec: 0 });
    const [rate, ...rest] = limits(result._meta.rateLimitFields.RateLimit);
    expect(rate).toMatchObject({ name: 'fx-echo', r: 104 });
    // A key without a tier has only the tool's quota: the store reports it as the most used.
    expect(rest).toEqual([expect.objectContaining({ name: 'fx-echo/month/runs', r: 49 })]);
    expect([...policies(result._meta.rateLimitFields['RateLimit-Policy']).keys()]).toEqual([
      'fx-echo',
      'fx-echo/budget',
      'fx-echo/cap',
      'fx-echo/instance-cap',
      'fx-echo/month/runs',
    ]);
  });

  it('refuses a spent compute budget naming the budget, until its window ends', async () => {
    const sleep = (ms: number) =>
      app!.inject({
        method: 'POST',
        url: '/api/fx-sleep/',
        headers: bearer(PLAIN),
        payload: { text: String(ms) },
      });
    expect((await sleep(80)).statusCode).toBe(200);
    const res = await sleep(1);
    expect(res.statusCode).toBe(429);
    const [refused, rate] = limits(res.headers.ratelimit);
    expect(refused).toMatchObject({ name: 'fx-sleep/budget', r: 0 });
    expect(refused!.t).toBe(Number(res.headers['retry-after']));
    expect(refused!.t).toBeGreaterThan(0);
    expect(refused!.t).toBeLessThanOrEqual(60);
    expect(rate!.name).toBe('fx-sleep');
    expect(policies(res.headers['ratelimit-policy']).get('fx-sleep/budget')).toEqual({
      q: 30,
      qu: 'worker-ms',
      w: 60,
    });
    expect(JSON.parse(res.body).rateLimit).toMatchObject({ scope: 'budget', limitName: 'fx-sleep/budget' });
  });

  it("refuses past a cap naming which: the client's, or the tool's on this instance", async () => {
    const sleep = (key: string, ms: number) =>
      app!.inject({
        method: 'POST',
        url: '/api/fx-sleep/',
        headers: bearer(key),
        payload: { text: String(ms) },
      });
    const usage = async () =>
      JSON.parse((await app!.inject({ url: '/api/usage', headers: bearer(BUSY) })).body).tools['fx-sleep']
        .concurrency.inFlight as number;
    // A long run holds BUSY's one slot and the tool's one slot here while the others are refused.
    const long = sleep(BUSY, 10_000);
    await expect.poll(usage, { timeout: 20_000, interval: 500 }).toBe(1);
    const own = await sleep(BUSY, 1);
    const other = await sleep(OTHER, 1);
    for (const [res, name] of [
      [own, 'fx-sleep/cap'],
      [other, 'fx-sleep/instance-cap'],
    ] as const) {
      expect(res.statusCode, name).toBe(429);
      expect(JSON.parse(res.body).rateLimit).toMatchObject({ scope: 'concurrency', limitName: name });
      // A cap frees when a run ends, not at a time: no t.
      expect(limits(res.headers.ratelimit)[0]).toEqual({ name, r: 0 });
      expect(policies(res.headers['ratelimit-policy']).get(name)).toEqual({
        q: 1,
        qu: 'concurrent-requests',
      });
    }
    expect((await long).statusCode).toBe(200);
  }, 60_000);

  it("names the tool's rate limit when it refuses, alone", async () => {
    const run = () => app!.inject({ url: '/api/tools/run/?toolId=fx-big&a=1', headers: bearer(OTHER) });
    await run();
    const res = await run();
    expect(res.statusCode).toBe(429);
    const [refused, ...rest] = limits(res.headers.ratelimit);
    expect(refused).toMatchObject({ name: 'fx-big', r: 0 });
    expect(refused!.t).toBeLessThanOrEqual(Number(res.headers['retry-after']));
    expect(rest).toEqual([]);
    expect(JSON.parse(res.body).rateLimit).toMatchObject({ scope: 'rate', limitName: 'fx-big' });
  });
});
