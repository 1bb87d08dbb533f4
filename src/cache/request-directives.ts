/**
 * The request's Cache-Control directives the result cache honours (RFC 9111, 5.2.1, as a
 * shared cache reads them; docs/api.md, "Result cache and ETags"). Directives it has no use
 * for are ignored: `max-stale` (the hub never answers past an entry's TTL, so there is no
 * stale answer to allow), `no-transform`, extensions.
 */
export interface CacheDirectives {
  /** `no-cache` (or `Pragma: no-cache` without Cache-Control): compute, never answer from a stored result. */
  noCache: boolean;
  /** `no-store`: neither answer from a stored result nor store this one. */
  noStore: boolean;
  /** `max-age`: a stored result older than this (seconds) is not used. */
  maxAgeSec?: number;
  /** `min-fresh`: a stored result with less than this left (seconds) is not used. */
  minFreshSec?: number;
  /** `only-if-cached`: answer from a stored result or not at all (504). */
  onlyIfCached: boolean;
}

/** The directive that kept a stored result from answering. */
export type Declined = 'no-cache' | 'no-store' | 'max-age' | 'min-fresh';

/** RFC 9111 1.2.2: a delta-seconds past what a cache can hold counts as 2^31. */
const DELTA_MAX = 2_147_483_648;

/**
 * The directives of a request's Cache-Control (and Pragma) fields; undefined when neither
 * asks anything of the cache. Names are case-insensitive; an argument may be a token or a
 * quoted string. A `max-age` or `min-fresh` without a readable number is read the careful way
 * (no stored result is used); the same directive twice keeps its stricter value. Text that
 * is not a directive is skipped up to the next comma outside quotes.
 */
export function readCacheDirectives(
  cacheControl: string | string[] | undefined,
  pragma: string | string[] | undefined,
): CacheDirectives | undefined {
  const field = Array.isArray(cacheControl) ? cacheControl.join(',') : cacheControl;
  if (field === undefined || field.trim() === '') {
    // RFC 9111 5.4: Pragma counts only where Cache-Control is absent.
    const old = Array.isArray(pragma) ? pragma.join(',') : pragma;
    if (old === undefined || !/(?:^|,)[ \t]*no-cache[ \t]*(?:,|$)/i.test(old)) return undefined;
    return { noCache: true, noStore: false, onlyIfCached: false };
  }
  const d: CacheDirectives = { noCache: false, noStore: false, onlyIfCached: false };
  let any = false;
  for (const [name, arg] of directivesOf(field)) {
    switch (name) {
      case 'no-cache':
        d.noCache = any = true;
        break;
      case 'no-store':
        d.noStore = any = true;
        break;
      case 'only-if-cached':
        d.onlyIfCached = any = true;
        break;
      case 'max-age':
        d.maxAgeSec = Math.min(d.maxAgeSec ?? DELTA_MAX, delta(arg) ?? 0);
        any = true;
        break;
      case 'min-fresh':
        d.minFreshSec = Math.max(d.minFreshSec ?? 0, delta(arg) ?? DELTA_MAX);
        any = true;
        break;
    }
  }
  return any ? d : undefined;
}

/** tchar (RFC 9110 5.6.2): the characters of a directive's name and of a token argument. */
const TCHAR = /^[!#$%&'*+.^_`|~0-9A-Za-z-]$/;
const SPACE = /^[ \t]$/;

/**
 * Each `name[=token|="quoted"]` of a field, its name lower-cased, in one pass over it (a
 * field of 16 KB costs no more than its length, whatever it holds). An element that is not
 * one is skipped to the next comma outside quotes; an unterminated quote ends the field.
 */
function* directivesOf(field: string): Generator<[string, string | undefined]> {
  const n = field.length;
  let i = 0;
  const skip = (re: RegExp) => {
    while (i < n && re.test(field[i]!)) i++;
  };
  /** Past a quoted string at i; false when it is not closed. */
  const quoted = (): string | undefined => {
    let value = '';
    for (i++; i < n; i++) {
      const c = field[i]!;
      if (c === '"') {
        i++;
        return value;
      }
      if (c === '\\' && i + 1 < n) i++;
      value += field[i];
    }
    return undefined;
  };
  while (i < n) {
    skip(/^[ \t,]$/);
    const start = i;
    skip(TCHAR);
    const name = field.slice(start, i).toLowerCase();
    skip(SPACE);
    let arg: string | undefined;
    let whole = name !== '';
    if (whole && field[i] === '=') {
      i++;
      skip(SPACE);
      if (field[i] === '"') {
        arg = quoted();
        if (arg === undefined) return;
      } else {
        const from = i;
        skip(TCHAR);
        arg = field.slice(from, i);
      }
      skip(SPACE);
    }
    if (i < n && field[i] !== ',') {
      whole = false;
      while (i < n && field[i] !== ',') {
        if (field[i] === '"') {
          if (quoted() === undefined) return;
        } else i++;
      }
    }
    if (whole) yield [name, arg];
  }
}

/** delta-seconds (1*DIGIT), capped at 2^31; undefined when not one. */
function delta(arg: string | undefined): number | undefined {
  if (arg === undefined || !/^\d+$/.test(arg)) return undefined;
  return Math.min(Number(arg), DELTA_MAX);
}

/** Which directive keeps a stored result from answering this request, if one does. */
export function declines(
  d: CacheDirectives,
  entry: { storedAt: number | undefined; expiresAt: number },
  now: number,
): Declined | undefined {
  if (d.noStore) return 'no-store';
  if (d.noCache) return 'no-cache';
  // An entry of unknown age (written by an older hub) is too old for any max-age, and max-age=0
  // takes none, even one stored this very millisecond: clients send it to have a fresh answer.
  if (
    d.maxAgeSec !== undefined &&
    (d.maxAgeSec === 0 || entry.storedAt === undefined || now - entry.storedAt > d.maxAgeSec * 1000)
  )
    return 'max-age';
  if (d.minFreshSec !== undefined && entry.expiresAt - now < d.minFreshSec * 1000) return 'min-fresh';
  return undefined;
}
