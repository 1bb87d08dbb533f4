/**
 * What the result cache did for one answer, the same on every door (docs/api.md, "Result
 * cache and ETags"): the `Cache-Status` header on HTTP (RFC 9211), `_meta.cache` over MCP,
 * `runtime.cached` in the answer body when the result came from the cache.
 */
export type CacheOutcome =
  /** From the cache (`memory`: this instance; `shared`: Redis), or `etag`: the client's copy is current (304). */
  | { status: 'hit'; layer: 'memory' | 'shared' | 'etag'; ttlSec?: number }
  /** Computed now; `stored` false when the result is over CACHE_MAX_ENTRY_BYTES. */
  | { status: 'miss'; stored: boolean }
  /** Not looked up: the tool is not deterministic for this input, or its cacheTtlSec is 0 (no Cache-Status on HTTP). */
  | { status: 'bypass'; reason: 'not-deterministic' | 'off' };

/** The cache's name in Cache-Status: the hub's own cache, in front of no other. */
const CACHE_NAME = 'toolhub';

/** The RFC 9211 field value of an outcome. */
export function cacheStatusHeader(c: CacheOutcome): string {
  switch (c.status) {
    case 'hit':
      return c.ttlSec === undefined
        ? `${CACHE_NAME}; hit; detail=${c.layer}`
        : `${CACHE_NAME}; hit; ttl=${c.ttlSec}; detail=${c.layer}`;
    case 'miss':
      return c.stored ? `${CACHE_NAME}; fwd=miss; stored` : `${CACHE_NAME}; fwd=miss; detail=too-large`;
    case 'bypass':
      return `${CACHE_NAME}; fwd=bypass; detail=${c.reason}`;
  }
}
