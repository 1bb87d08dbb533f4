import fc from 'fast-check';
import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDIS_URL, redisPrefix, requireRedis } from '../../test/helpers.js';
import { NO_QUOTAS, quotaBits } from '../config/quota.js';
import { dayEndOf, monthEndOf } from './calendar.js';
import { MemoryStore } from './memory-store.js';
import { LimiterRedis } from './redis-client.js';
import { RedisStore } from './redis-store.js';
import type { DecideReply, SettleRequest, StorePolicy } from './store.js';
import { leasesKey } from './store.js';

/**
 * One algorithm, two stores (docs/architecture.md, "The limiter"): the in-process store
 * (src/limits/decide.ts) and the Redis store (src/limits/lua/) are driven through the same
 * random sequences of decisions, releases, lost releases and clock moves (across UTC days and
 * months, for the quotas), and must answer alike at every step, and read alike (the usage read of src/limits/usage.ts); the rate limit itself must count as rate-limiter-flexible's
 * BurstyRateLimiter does (the reference the algorithm was written from).
 */
const policy = (over: Partial<StorePolicy>): StorePolicy => ({
  tier: '',
  limit: 3,
  burst: 2,
  windowMs: 1000,
  budgetMs: 500,
  cap: 2,
  leaseMs: 1500,
  reserveMs: 200,
  quotas: NO_QUOTAS,
  ...over,
});
const POLICIES = [
  policy({}),
  policy({ tier: 'pro', limit: 5, burst: 0, cap: 3, windowMs: 2500 }),
  // Quotas per tool and per key (runs and ms a day, then a month), some small enough to bite.
  policy({ limit: 6, cap: 3, quotas: [2, 400, 4, 900, 3, 700, 6, -1] }),
  policy({ tier: 'pro', limit: 8, quotas: [-1, -1, -1, -1, 2, 300, 4, -1] }),
];

type Step =
  | {
      kind: 'decide';
      /** The decisions of one turn: one script call that applies them in order. */
      runs: { key: number; tool: number; policy: number }[];
      points: number;
      admit: boolean;
    }
  | { kind: 'release'; lease: number; chargedMs: number; together: number }
  | { kind: 'lose'; lease: number }
  | { kind: 'wait'; ms: number }
  /** The leases of one client and tool (the held one at `lease`'s), and one given back, renewed by `ms`. */
  | { kind: 'renew'; lease: number; ms: number }
  | {
      kind: 'settle';
      /** Sent again: the id of an earlier settlement (its answer lost), which must not count twice. */
      again: boolean;
      run: { key: number; tool: number };
      counts: { hash: 1 | 2; pair: number; delta: number; msLeft: number }[];
      leases: number[];
      reservations: { hash: 1 | 2; ms: number; msLeft: number }[];
    };

/** The counter and window-end fields a settlement adds to (src/limits/settle.ts). */
const PAIRS = [
  ['c', 'e'],
  ['cpro', 'epro'],
  ['b', 'f'],
  ['u', 'v'],
  ['dr', 'de'],
  ['dm', 'de'],
  ['mr', 'me'],
  ['mm', 'me'],
] as const;

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('decide' as const),
      // Several in one turn, on one client and tool or on several (each named once in the call).
      runs: fc.oneof(
        fc
          .record({
            run: fc.record({
              key: fc.integer({ min: 0, max: 1 }),
              tool: fc.integer({ min: 0, max: 1 }),
              policy: fc.integer({ min: 0, max: POLICIES.length - 1 }),
            }),
            together: fc.integer({ min: 1, max: 4 }),
          })
          .map(({ run, together }) => Array.from({ length: together }, () => run)),
        fc.array(
          fc.record({
            key: fc.integer({ min: 0, max: 1 }),
            tool: fc.integer({ min: 0, max: 1 }),
            policy: fc.integer({ min: 0, max: POLICIES.length - 1 }),
          }),
          { minLength: 2, maxLength: 5 },
        ),
      ),
      points: fc.integer({ min: 0, max: 3 }),
      admit: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('release' as const),
      lease: fc.nat(),
      chargedMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 300 })),
      together: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('lose' as const), lease: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 2000 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('renew' as const),
      lease: fc.nat(),
      ms: fc.integer({ min: 0, max: 3000 }),
    }),
  },
  // What an instance counted while Redis was away, charged when it answers again: counts of
  // windows open or ended on either side, leases of runs still in flight and their reservations.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      again: fc.boolean(),
      run: fc.record({ key: fc.integer({ min: 0, max: 1 }), tool: fc.integer({ min: 0, max: 1 }) }),
      counts: fc.array(
        fc.record({
          hash: fc.constantFrom(1 as const, 2 as const),
          pair: fc.integer({ min: 0, max: PAIRS.length - 1 }),
          delta: fc.integer({ min: -1, max: 300 }),
          msLeft: fc.integer({ min: -500, max: 3000 }),
        }),
        { maxLength: 5 },
      ),
      leases: fc.array(fc.integer({ min: -200, max: 3000 }), { maxLength: 3 }),
      reservations: fc.array(
        fc.record({
          hash: fc.constantFrom(1 as const, 2 as const),
          ms: fc.integer({ min: 1, max: 300 }),
          msLeft: fc.integer({ min: 1, max: 3000 }),
        }),
        { maxLength: 2 },
      ),
    }),
  },
  // A day or so at once: the quota windows end and start again.
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      ms: fc.integer({ min: 86_000_000, max: 87_000_000 }),
    }),
  },
);

let redis: LimiterRedis;
/** Quota keys live to the end of a month: the test's own are deleted after it. */
const prefixes: string[] = [];
beforeAll(async () => {
  await requireRedis();
  redis = new LimiterRedis(REDIS_URL, 5000);
  await new Promise((resolve) => redis.client.once('ready', resolve));
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await redis.client.keys(`${prefix}*`);
    if (keys.length > 0) await redis.client.del(...keys);
  }
  await redis?.close();
});

/** A decision of the `pro` policy (cap 3) on one client and tool. */
const pro = { key: 0, tool: 0, policy: 1 };

describe('the two limit stores', () => {
  it('answer every step of the same random sequences alike', async () => {
    let run = 0;
    // Decisions by quota state: none applied, within the quotas, one spent, one of ms full.
    const seen = [0, 0, 0, 0];
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 4000 }),
        async (steps, atMonth, before) => {
          // Ahead of the real clock: Redis expires keys by its own time, so a key must not expire
          // there before its (injected) time has come. Just before a UTC day's or month's end.
          const ahead = Date.now() + 60_000;
          let now = Math.max(ahead, (atMonth ? monthEndOf(ahead) : dayEndOf(ahead)) - before);
          const prefix = `${redisPrefix()}${run++}:`;
          prefixes.push(prefix);
          const touched = new Set<string>();
          const memory = new MemoryStore(() => now);
          const redisStore = new RedisStore(redis, () => now);
          const leases: { key: string; quotaKey: string; id: string; windowMs: number; quotas: number }[] =
            [];
          let ids = 0;
          const settled: string[] = [];
          // Every field and lease alike too, while the key lives (Redis may keep a dead one longer).
          const sameFields = async (key: string) => {
            // The usage read (GET /api/usage) sees the same under every tier.
            for (const { tier } of POLICIES)
              expect(await redisStore.usage(key, tier), `usage ${tier} at ${now}`).toEqual(
                memory.usageNow(key, tier),
              );
            const mine = memory.peek(key);
            if (!mine) return;
            const theirs = await redis.client.hgetall(key);
            const live = Object.fromEntries([...mine.counters].map(([f, v]) => [f, String(v)]));
            expect(theirs).toEqual(live);
            if (mine.leasesExpireAt <= now) return;
            const scored = await redis.client.zrange(leasesKey(key), '0', '-1', 'WITHSCORES');
            const leases = new Map<string, number>();
            for (let i = 0; i < scored.length; i += 2) leases.set(scored[i]!, Number(scored[i + 1]));
            expect(leases).toEqual(mine.leases);
          };
          for (const s of steps) {
            if (s.kind === 'wait') {
              now += s.ms;
              // Redis expires keys by its own clock: what the injected clock has outlived goes now.
              // Every key the limiter writes expires on its own (-1: one that never would).
              for (const k of touched) {
                const at = Number(await redis.client.call('PEXPIRETIME', k));
                expect(at, `${k} has an expiry`).not.toBe(-1);
                if (at > 0 && at <= now) await redis.client.del(k);
              }
            } else if (s.kind === 'decide') {
              const rs = s.runs.map((run) => {
                const key = `${prefix}lim:{${run.key}}:t${run.tool}`;
                const quotaKey = `${prefix}lim:{${run.key}}:@quota`;
                for (const k of [key, leasesKey(key), quotaKey]) touched.add(k);
                const policy = POLICIES[run.policy]!;
                return { key, quotaKey, policy, points: s.points, admit: s.admit, leaseId: `${ids++}` };
              });
              const mine = rs.map((r) => memory.decideNow(r));
              const theirs = await Promise.all(rs.map((r) => redisStore.decide(r)));
              expect(theirs, JSON.stringify({ step: s, now })).toEqual(mine);
              for (const reply of mine) seen[reply[6]] = (seen[reply[6]] ?? 0) + 1;
              for (const k of new Set(rs.flatMap((r) => [r.key, r.quotaKey]))) await sameFields(k);
              for (const [j, r] of rs.entries())
                if (s.admit && (mine[j] as DecideReply)[5] > 0)
                  leases.push({
                    key: r.key,
                    quotaKey: r.quotaKey,
                    id: r.leaseId,
                    windowMs: r.policy.windowMs,
                    quotas: quotaBits(r.policy.quotas),
                  });
            } else if (s.kind === 'release') {
              // Charges that differ within the call (one of them none): summed per group in Redis.
              const rs = leases.splice(0, s.together).map((lease, j) => ({
                key: lease.key,
                quotaKey: lease.quotaKey,
                leaseId: lease.id,
                chargedMs: s.chargedMs > 0 && j !== 1 ? s.chargedMs + 7 * j : 0,
                windowMs: lease.windowMs,
                quotas: lease.quotas,
              }));
              for (const r of rs) await memory.release(r);
              await Promise.all(rs.map((r) => redisStore.release(r)));
              for (const r of new Set(rs.flatMap((x) => [x.key, x.quotaKey]))) await sameFields(r);
            } else if (s.kind === 'renew') {
              if (leases.length === 0) continue;
              const one = leases[s.lease % leases.length]!;
              const mine = leases.filter((l) => l.key === one.key);
              const r = {
                key: one.key,
                quotaKey: one.quotaKey,
                // One id no longer held (or never): not made again.
                leaseIds: [...mine.map((l) => l.id), 'gone'],
                ms: s.ms,
                quotas: one.quotas,
              };
              await memory.renew(r);
              await redisStore.renew(r);
              await sameFields(one.key);
              await sameFields(one.quotaKey);
            } else if (s.kind === 'settle') {
              const key = `${prefix}lim:{${s.run.key}}:t${s.run.tool}`;
              const quotaKey = `${prefix}lim:{${s.run.key}}:@quota`;
              for (const k of [key, leasesKey(key), quotaKey]) touched.add(k);
              const r: SettleRequest = {
                id: s.again && settled.length > 0 ? settled[settled.length - 1]! : `s${ids++}`,
                key,
                quotaKey,
                counts: s.counts.map(
                  ({ hash, pair, delta, msLeft }) => [hash, ...PAIRS[pair]!, delta, msLeft] as const,
                ),
                leases: s.leases.filter((ms) => ms > 0).map((ms) => [`s${ids++}`, ms] as const),
                reservations: s.reservations.map(
                  ({ hash, ms, msLeft }) => [hash, `s${ids++}`, ms, msLeft] as const,
                ),
              };
              settled.push(r.id);
              await memory.settle(r);
              await redisStore.settle(r);
              await sameFields(key);
              await sameFields(quotaKey);
            } else if (leases.length > 0) leases.splice(s.lease % leases.length, 1);
          }
        },
      ),
      {
        numRuns: 250,
        // Besides the random ones: a key's quota of 2 runs a day spent, refused, open again the next day.
        examples: [
          // Three runs at once under a quota of 400 ms a day: two reserve 200 ms each, the third
          // finds no room (quota state 3); one ends and charges, and room is made again.
          [
            [
              {
                kind: 'decide' as const,
                runs: [0, 0, 0].map(() => ({ key: 0, tool: 0, policy: 2 })),
                points: 1,
                admit: true,
              },
              { kind: 'release' as const, lease: 0, chargedMs: 50, together: 1 },
              { kind: 'decide' as const, runs: [{ key: 0, tool: 0, policy: 2 }], points: 1, admit: true },
            ],
            false,
            0,
          ],
          [
            [
              ...Array.from({ length: 3 }, () => ({
                kind: 'decide' as const,
                runs: [{ key: 0, tool: 0, policy: 3 }],
                points: 1,
                admit: true,
              })),
              { kind: 'wait' as const, ms: 86_400_000 },
              { kind: 'decide' as const, runs: [{ key: 0, tool: 1, policy: 3 }], points: 1, admit: true },
            ],
            false,
            0,
          ],
          // Leases past their deadline pruned in the middle of a group: the cap's room after the
          // prune is more than the group has left.
          [
            [
              { kind: 'decide' as const, runs: [0, 0].map(() => pro), points: 0, admit: true },
              { kind: 'wait' as const, ms: 2000 },
              { kind: 'decide' as const, runs: [0, 0].map(() => pro), points: 0, admit: true },
            ],
            false,
            0,
          ],
          // One lease of the cap of 2 held and past its deadline; a group of two takes one, and at
          // the cap the prune empties the stored set while that new lease is still to be
          // written: the set must keep an expiry (Redis deletes an emptied key).
          [
            [
              { kind: 'decide' as const, runs: [{ key: 0, tool: 0, policy: 0 }], points: 0, admit: true },
              { kind: 'wait' as const, ms: 1500 },
              {
                kind: 'decide' as const,
                runs: [0, 0].map(() => ({ key: 0, tool: 0, policy: 0 })),
                points: 0,
                admit: true,
              },
              { kind: 'wait' as const, ms: 86_000_000 },
              { kind: 'decide' as const, runs: [{ key: 0, tool: 0, policy: 0 }], points: 1, admit: false },
            ],
            false,
            0,
          ],
        ],
      },
    );
    // The sequences reached every state of the quotas, a refusal included.
    expect(
      seen.every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  }, 120_000);
});

describe('the rate limit against rate-limiter-flexible', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts, refuses and resets as BurstyRateLimiter over RateLimiterMemory', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1500 })), { maxLength: 30 }),
        async (moves) => {
          vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: 1_700_000_000_000 });
          const p = policy({ limit: 3, burst: 2, windowMs: 1000 });
          const library = new BurstyRateLimiter(
            new RateLimiterMemory({ points: p.limit, duration: p.windowMs / 1000 }),
            new RateLimiterMemory({ points: p.burst, duration: p.windowMs / 1000, keyPrefix: 'burst' }),
          );
          const ours = new MemoryStore(() => Date.now());
          for (const ms of moves) {
            if (ms > 0) {
              vi.advanceTimersByTime(ms);
              continue;
            }
            const res = await library.consume('c').then(
              (r) => ({ r, allowed: 1 }),
              (r: unknown) => {
                if (!(r instanceof RateLimiterRes)) throw r;
                return { r, allowed: 0 };
              },
            );
            const [consumed, msBeforeNext, allowed] = ours.decideNow({
              key: 'c',
              quotaKey: 'q',
              policy: p,
              points: 1,
              admit: false,
              leaseId: '',
            });
            expect({ consumed, msBeforeNext, allowed }).toEqual({
              consumed: res.r.consumedPoints,
              msBeforeNext: res.r.msBeforeNext,
              allowed: res.allowed,
            });
          }
          vi.useRealTimers();
        },
      ),
      { numRuns: 100 },
    );
  });
});
