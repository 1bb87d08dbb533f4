import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, requireRedis } from '../../test/helpers.js';
import { dayEndOf, monthEndOf, nearestEnd } from './calendar.js';
import { luaInclude } from './scripts.js';

/**
 * The quota windows, written twice (src/limits/calendar.ts and lua/includes/calendar.lua):
 * both against Date.UTC, the independent reference, on random instants and on the edges
 * (leap days, year ends, the last millisecond of a month).
 */
const byDate = (t: number) => {
  const d = new Date(t);
  return {
    day: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1),
    month: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
};
const edges = [
  Date.UTC(2024, 1, 29, 12),
  Date.UTC(2024, 2, 1) - 1,
  Date.UTC(2024, 2, 1),
  Date.UTC(2100, 1, 28, 23, 59, 59, 999),
  Date.UTC(2000, 1, 29),
  Date.UTC(2026, 11, 31, 23, 59, 59, 999),
  Date.UTC(2027, 0, 1),
  0,
];
const instant = fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) });

describe('the UTC day and month of a quota', () => {
  it('end where Date.UTC says (TypeScript)', () => {
    for (const t of edges) expect({ day: dayEndOf(t), month: monthEndOf(t) }, String(t)).toEqual(byDate(t));
    fc.assert(
      fc.property(instant, (t) => {
        expect({ day: dayEndOf(t), month: monthEndOf(t) }).toEqual(byDate(t));
      }),
      { numRuns: 20_000 },
    );
  });

  it('are named back from an end read on a clock up to hours apart', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -11 * 3_600_000, max: 11 * 3_600_000 }), (t, skew) => {
        expect(nearestEnd('day', dayEndOf(t) + skew)).toBe(dayEndOf(t));
        expect(nearestEnd('month', monthEndOf(t) + skew)).toBe(monthEndOf(t));
      }),
    );
  });

  describe('in Redis (the Lua twin)', () => {
    let redis: Redis;
    const lua = `${luaInclude('calendar')}
local out = {}
for i = 1, #ARGV do
  local t = tonumber(ARGV[i])
  out[#out + 1] = dayEndOf(t)
  out[#out + 1] = monthEndOf(t)
end
return out`;
    beforeAll(async () => {
      await requireRedis();
      redis = new Redis(REDIS_URL);
    });
    afterAll(() => redis?.disconnect());

    it('end where Date.UTC says', async () => {
      const instants = [...edges, ...fc.sample(instant, 2000)];
      const out = (await redis.eval(lua, 0, ...instants)) as number[];
      for (const [i, t] of instants.entries())
        expect({ day: out[2 * i], month: out[2 * i + 1] }, String(t)).toEqual(byDate(t));
    });
  });
});
