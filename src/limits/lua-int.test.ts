import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, requireRedis } from '../../test/helpers.js';
import { luaInclude } from './scripts.js';

/**
 * The scripts write counters through int() (lua/includes/int.lua), which formats whole
 * numbers itself instead of leaving it to Redis: what it stores must read back as the number
 * Redis's own formatting stores, for whole numbers, fractions, and beyond the integers a
 * double holds exactly.
 */
describe("the scripts' integer text (int.lua)", () => {
  let redis: Redis;
  const lua = `${luaInclude('int')}
local out = {}
for i = 1, #ARGV do
  local v = tonumber(ARGV[i])
  redis.call('HSET', KEYS[1], 'mine', int(v), 'redis', v)
  local got = redis.call('HMGET', KEYS[1], 'mine', 'redis')
  out[#out + 1] = got[1]
  out[#out + 1] = got[2]
end
redis.call('DEL', KEYS[1])
return out`;
  beforeAll(async () => {
    await requireRedis();
    redis = new Redis(REDIS_URL);
  });
  afterAll(() => redis?.disconnect());

  it('stores what Redis would, read back as the same number', async () => {
    const edges = [
      0,
      -0,
      -1,
      1,
      1_764_000_000_000,
      2.5,
      -0.25,
      2 ** 53 - 1,
      2 ** 53,
      2 ** 53 + 2,
      -(2 ** 53),
      1e20,
      1e-7,
    ];
    const values = [
      ...edges,
      ...fc.sample(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), 300),
      ...fc.sample(fc.maxSafeInteger(), 300),
      ...fc.sample(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), 300),
    ];
    const key = `toolhub-test:int:${process.pid}`;
    const out = (await redis.eval(lua, 1, key, ...values.map((v) => String(v)))) as string[];
    for (const [i, v] of values.entries()) {
      const [mine, theirs] = [out[2 * i]!, out[2 * i + 1]!];
      // == rather than Object.is: Redis writes -0 as "-0", int() as "0", the same counter.
      expect(Number(mine) === Number(theirs), `${v}: ${mine} against ${theirs}`).toBe(true);
      if (Number.isSafeInteger(v)) expect(mine, String(v)).toBe(String(v));
    }
  });
});
