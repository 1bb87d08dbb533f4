import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { declines, readCacheDirectives } from './request-directives.js';

/** The request directives the result cache reads (RFC 9111, 5.2.1; docs/api.md, "Result cache and ETags"). */
const none = { noCache: false, noStore: false, onlyIfCached: false };

describe('readCacheDirectives', () => {
  it('reads each directive the cache honours, names in any case, arguments as token or quoted string', () => {
    expect(readCacheDirectives('no-cache', undefined)).toEqual({ ...none, noCache: true });
    expect(readCacheDirectives('No-Store', undefined)).toEqual({ ...none, noStore: true });
    expect(readCacheDirectives('ONLY-IF-CACHED', undefined)).toEqual({ ...none, onlyIfCached: true });
    expect(readCacheDirectives('max-age=30', undefined)).toEqual({ ...none, maxAgeSec: 30 });
    expect(readCacheDirectives('max-age="30"', undefined)).toEqual({ ...none, maxAgeSec: 30 });
    expect(readCacheDirectives('min-fresh = 5', undefined)).toEqual({ ...none, minFreshSec: 5 });
    expect(readCacheDirectives(' max-age=0 ,no-cache,\tonly-if-cached ', undefined)).toEqual({
      noCache: true,
      noStore: false,
      onlyIfCached: true,
      maxAgeSec: 0,
    });
    // Repeated fields arrive as a list.
    expect(readCacheDirectives(['max-age=9', 'no-store'], undefined)).toEqual({
      ...none,
      noStore: true,
      maxAgeSec: 9,
    });
  });

  it('is undefined when nothing asks anything of the cache', () => {
    expect(readCacheDirectives(undefined, undefined)).toBeUndefined();
    expect(readCacheDirectives('', undefined)).toBeUndefined();
    // Directives of no use to this cache: there is never a stale answer to allow.
    expect(readCacheDirectives('max-stale=60, no-transform, x-ext="a,b"', undefined)).toBeUndefined();
  });

  it('takes Pragma: no-cache only when there is no Cache-Control', () => {
    expect(readCacheDirectives(undefined, 'no-cache')).toEqual({ ...none, noCache: true });
    expect(readCacheDirectives(undefined, 'x, No-Cache')).toEqual({ ...none, noCache: true });
    expect(readCacheDirectives(undefined, 'no-cache-please')).toBeUndefined();
    expect(readCacheDirectives('max-age=60', 'no-cache')).toEqual({ ...none, maxAgeSec: 60 });
  });

  it('reads an unreadable number the careful way, and a repeated directive at its stricter value', () => {
    expect(readCacheDirectives('max-age', undefined)?.maxAgeSec).toBe(0);
    expect(readCacheDirectives('max-age=soon', undefined)?.maxAgeSec).toBe(0);
    expect(readCacheDirectives('max-age=-1', undefined)?.maxAgeSec).toBe(0);
    expect(readCacheDirectives('min-fresh=x', undefined)?.minFreshSec).toBe(2_147_483_648);
    expect(readCacheDirectives('max-age=99999999999999999999', undefined)?.maxAgeSec).toBe(2_147_483_648);
    expect(readCacheDirectives('max-age=60, max-age=5', undefined)?.maxAgeSec).toBe(5);
    expect(readCacheDirectives('min-fresh=1, min-fresh=7', undefined)?.minFreshSec).toBe(7);
  });

  it('skips what is not a directive up to the next comma, quoted commas included', () => {
    expect(readCacheDirectives('"junk", no-store', undefined)).toEqual({ ...none, noStore: true });
    expect(readCacheDirectives('ext="a, no-cache", max-age=3', undefined)).toEqual({ ...none, maxAgeSec: 3 });
    expect(readCacheDirectives('max-age=5 trailing, only-if-cached', undefined)).toEqual({
      ...none,
      onlyIfCached: true,
    });
    expect(readCacheDirectives(',,,', undefined)).toBeUndefined();
    expect(readCacheDirectives('x="a\\"b, no-store", max-age=2', undefined)).toEqual({
      ...none,
      maxAgeSec: 2,
    });
    // An unterminated quote holds the rest of the field.
    expect(readCacheDirectives('no-cache, x="open, no-store', undefined)).toEqual({ ...none, noCache: true });
    // Long fields, of many elements or of many opened quotes, are read whole.
    const long = `${'x=1, '.repeat(2000)}no-cache`;
    expect(readCacheDirectives(long, undefined)).toEqual({ ...none, noCache: true });
    expect(readCacheDirectives(`no-store, ${'x="a,'.repeat(3000)}`, undefined)).toEqual({
      ...none,
      noStore: true,
    });
  });

  it('never throws, whatever the fields hold', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 50 }), (field, pragma) => {
        const d = readCacheDirectives(field, pragma);
        if (d === undefined) return;
        expect(typeof d.noCache).toBe('boolean');
        if (d.maxAgeSec !== undefined) expect(d.maxAgeSec).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('declines', () => {
  const now = 1_700_000_000_000;
  const entry = { storedAt: now - 10_000, expiresAt: now + 50_000 };

  it('names the directive that keeps a stored result from answering', () => {
    expect(declines({ ...none }, entry, now)).toBeUndefined();
    expect(declines({ ...none, noCache: true }, entry, now)).toBe('no-cache');
    expect(declines({ ...none, noStore: true, noCache: true }, entry, now)).toBe('no-store');
    expect(declines({ ...none, maxAgeSec: 10 }, entry, now)).toBeUndefined();
    expect(declines({ ...none, maxAgeSec: 9 }, entry, now)).toBe('max-age');
    // max-age=0: no stored result at all, not even one of this very millisecond.
    expect(declines({ ...none, maxAgeSec: 0 }, entry, now)).toBe('max-age');
    expect(declines({ ...none, maxAgeSec: 0 }, { ...entry, storedAt: now }, now)).toBe('max-age');
    expect(declines({ ...none, maxAgeSec: 1 }, { ...entry, storedAt: now }, now)).toBeUndefined();
    expect(declines({ ...none, minFreshSec: 50 }, entry, now)).toBeUndefined();
    expect(declines({ ...none, minFreshSec: 51 }, entry, now)).toBe('min-fresh');
    expect(declines({ ...none, onlyIfCached: true }, entry, now)).toBeUndefined();
  });

  it('takes an entry of unknown age (an older hub wrote it) as too old for any max-age', () => {
    const unknown = { storedAt: undefined, expiresAt: now + 50_000 };
    expect(declines({ ...none, maxAgeSec: 2_147_483_648 }, unknown, now)).toBe('max-age');
    expect(declines({ ...none, minFreshSec: 1 }, unknown, now)).toBeUndefined();
  });
});
