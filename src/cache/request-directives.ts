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
/** `name`, then `=token` or `="quoted"`, up to the next comma. */
const DIRECTIVE =
  /[ \t]*([!#$%&'*+.^_`|~0-9A-Za-z-]+)[ \t]*(?:=[ \t]*(?:"((?:[^"\\]|\\.)*)"|([^,\s"]*)))?[ \t]*(?:,|$)/y;

/**
 * The directives of a request's Cache-Control (and Pragma) fields; undefined when neither
 * asks anything of the cache. Names are case-insensitive; an argument may be a token or a
 * quoted string. A `max-age` or `min-fresh` without a readable number is read the careful way
 * (no stored result is used); the same directive twice keeps its stricter value. Text that
 * is not a directive is skipped up to the next comma.
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
  for (let at = 0; at < field.length; ) {
    DIRECTIVE.lastIndex = at;
    const m = DIRECTIVE.exec(field);
    if (!m) {
      const comma = field.indexOf(',', at);
      if (comma < 0) break;
      at = comma + 1;
      continue;
    }
    at = DIRECTIVE.lastIndex;
    if (m[0].length === 0) break;
    const arg = m[2] ?? m[3];
    switch (m[1]!.toLowerCase()) {
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
  // An entry of unknown age (written by an older hub) is too old for any max-age.
  if (
    d.maxAgeSec !== undefined &&
    (entry.storedAt === undefined || now - entry.storedAt > d.maxAgeSec * 1000)
  )
    return 'max-age';
  if (d.minFreshSec !== undefined && entry.expiresAt - now < d.minFreshSec * 1000) return 'min-fresh';
  return undefined;
}
