import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryLayer } from './memory-layer.js';

/**
 * The result cache's in-process layer: least recently used out first, bounded by bytes
 * (two per UTF-16 unit of key and result, plus a fixed overhead per entry).
 */
const cost = (key: string, json: string) => 2 * (json.length + key.length) + 64;
const T0 = 1_700_000_000_000;

describe('MemoryLayer', () => {
  it('gives back what was set, and nothing for other keys', () => {
    const m = new MemoryLayer(10_000);
    m.set('a', '{"x":1}', T0 + 1000);
    m.set('b', '[1,2]', T0 + 1000);
    expect(m.get('a', T0)?.json).toBe('{"x":1}');
    expect(m.get('a', T0)?.expiresAt).toBe(T0 + 1000);
    expect(m.get('b', T0)?.json).toBe('[1,2]');
    expect(m.get('c', T0)).toBeUndefined();
    expect(m.stats).toEqual({ entries: 2, bytes: cost('a', '{"x":1}') + cost('b', '[1,2]') });
  });

  it('expires an entry at its end and frees its bytes', () => {
    const m = new MemoryLayer(10_000);
    m.set('a', '"x"', T0 + 1000);
    m.set('b', '"y"', T0 + 5000);
    expect(m.get('a', T0 + 999)?.json).toBe('"x"');
    expect(m.get('a', T0 + 1000)).toBeUndefined();
    expect(m.get('a', T0)).toBeUndefined(); // gone, not just hidden
    expect(m.stats).toEqual({ entries: 1, bytes: cost('b', '"y"') });
    expect(m.get('b', T0 + 4999)?.json).toBe('"y"');
    expect(m.get('b', T0 + 10_000)).toBeUndefined();
    expect(m.stats).toEqual({ entries: 0, bytes: 0 });
  });

  it('evicts the least recently used entries when over its bytes, a hit counting as a use', () => {
    const json = 'x'.repeat(100);
    const one = cost('k1', json);
    const m = new MemoryLayer(3 * one);
    m.set('k1', json, T0 + 60_000);
    m.set('k2', json, T0 + 60_000);
    m.set('k3', json, T0 + 60_000);
    expect(m.stats).toEqual({ entries: 3, bytes: 3 * one });
    // k1 is the oldest, but a hit makes k2 the least recently used.
    expect(m.get('k1', T0)).toBeDefined();
    m.set('k4', json, T0 + 60_000);
    expect(m.get('k2', T0)).toBeUndefined();
    expect(m.get('k1', T0)?.json).toBe(json);
    expect(m.get('k3', T0)?.json).toBe(json);
    expect(m.get('k4', T0)?.json).toBe(json);
    expect(m.stats).toEqual({ entries: 3, bytes: 3 * one });
    // A large entry pushes out as many as it needs, oldest first (k1, then k3).
    const big = 'y'.repeat(200);
    m.set('k5', big, T0 + 60_000);
    expect(m.get('k1', T0)).toBeUndefined();
    expect(m.get('k3', T0)).toBeUndefined();
    expect(m.get('k4', T0)?.json).toBe(json);
    expect(m.get('k5', T0)?.json).toBe(big);
    expect(m.stats).toEqual({ entries: 2, bytes: one + cost('k5', big) });
  });

  it('does not store an entry larger than its bound, and keeps what it held', () => {
    const m = new MemoryLayer(500);
    m.set('small', '1', T0 + 1000);
    const tooBig = 'z'.repeat(250); // 2 * (250 + 3) + 64 > 500
    expect(cost('big', tooBig)).toBeGreaterThan(500);
    m.set('big', tooBig, T0 + 1000);
    expect(m.get('big', T0)).toBeUndefined();
    expect(m.get('small', T0)?.json).toBe('1');
    expect(m.stats).toEqual({ entries: 1, bytes: cost('small', '1') });
    // One that just fits is stored, and is then all it holds.
    const fits = 'f'.repeat((500 - 64) / 2 - 3);
    expect(cost('fit', fits)).toBe(500);
    m.set('fit', fits, T0 + 1000);
    expect(m.get('fit', T0)?.json).toBe(fits);
    expect(m.get('small', T0)).toBeUndefined();
    expect(m.stats).toEqual({ entries: 1, bytes: 500 });
  });

  it('stores nothing with a bound of 0', () => {
    const m = new MemoryLayer(0);
    m.set('a', '1', T0 + 1000);
    expect(m.get('a', T0)).toBeUndefined();
    expect(m.stats).toEqual({ entries: 0, bytes: 0 });
  });

  it('counts a replaced key once, at its new size', () => {
    const m = new MemoryLayer(10_000);
    m.set('a', 'x'.repeat(100), T0 + 1000);
    m.set('b', '1', T0 + 1000);
    m.set('a', 'x'.repeat(10), T0 + 2000);
    expect(m.stats).toEqual({ entries: 2, bytes: cost('a', 'x'.repeat(10)) + cost('b', '1') });
    expect(m.get('a', T0 + 1500)?.json).toBe('x'.repeat(10));
    m.set('a', 'x'.repeat(300), T0 + 2000);
    expect(m.stats).toEqual({ entries: 2, bytes: cost('a', 'x'.repeat(300)) + cost('b', '1') });
    // A replaced key is the most recently used: a bound that forces one eviction drops `b`.
    const tight = new MemoryLayer(2 * cost('a', '11'));
    tight.set('a', '11', T0 + 1000);
    tight.set('b', '22', T0 + 1000);
    tight.set('a', '33', T0 + 1000);
    tight.set('c', '44', T0 + 1000);
    expect(tight.get('b', T0)).toBeUndefined();
    expect(tight.get('a', T0)?.json).toBe('33');
    expect(tight.get('c', T0)?.json).toBe('44');
  });

  it('answers random sequences as a plain LRU model does, never over its bound', () => {
    type Op =
      | { op: 'set'; key: number; size: number; ttl: number }
      | { op: 'get'; key: number }
      | { op: 'tick'; ms: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({
          op: fc.constant('set' as const),
          key: fc.integer({ min: 0, max: 7 }),
          size: fc.integer({ min: 0, max: 400 }),
          ttl: fc.integer({ min: 1, max: 3000 }),
        }),
      },
      {
        weight: 4,
        arbitrary: fc.record({ op: fc.constant('get' as const), key: fc.integer({ min: 0, max: 7 }) }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ op: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 1500 }) }),
      },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.array(op, { maxLength: 80 }), (maxBytes, ops) => {
        const m = new MemoryLayer(maxBytes);
        // The model: an array, least recently used first.
        let model: { key: string; json: string; expiresAt: number; bytes: number }[] = [];
        let now = T0;
        let version = 0;
        for (const o of ops) {
          if (o.op === 'tick') {
            now += o.ms;
          } else if (o.op === 'set') {
            const key = `key-${o.key}`;
            // Unicode as well: sizes count UTF-16 units.
            const json = JSON.stringify(`${version++}:${'é😀x'.repeat(o.size / 4)}`);
            m.set(key, json, now + o.ttl);
            const bytes = cost(key, json);
            if (bytes <= maxBytes) {
              model = model.filter((e) => e.key !== key);
              model.push({ key, json, expiresAt: now + o.ttl, bytes });
              while (model.reduce((s, e) => s + e.bytes, 0) > maxBytes) model.shift();
            }
          } else {
            const key = `key-${o.key}`;
            const got = m.get(key, now);
            const i = model.findIndex((e) => e.key === key);
            let want: string | undefined;
            if (i >= 0) {
              const [e] = model.splice(i, 1);
              if (e!.expiresAt > now) {
                model.push(e!);
                want = e!.json;
              }
            }
            expect(got?.json).toBe(want);
          }
          const bytes = model.reduce((s, e) => s + e.bytes, 0);
          expect(m.stats).toEqual({ entries: model.length, bytes });
          expect(m.stats.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 300 },
    );
  });
});
