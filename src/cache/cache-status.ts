import type { Declined } from './request-directives.js';
import type { CacheLayer } from './result-cache.js';

/**
 * What the result cache did for one answer, the same on every door (docs/api.md, "Result
 * cache and ETags"): the `Cache-Status` header on HTTP (RFC 9211), `_meta.cache` over MCP,
 * `runtime.cached` in the answer body when the result came from the cache. Every field is
 * what happened, never what was meant to: `stored` names the layer that took the result.
 */
export type CacheOutcome =
  /** From the cache: `memory` (this instance) or `shared` (Redis), its TTL left and, when known, its age. */
  | { status: 'hit'; layer: CacheLayer; ttlSec: number; ageSec?: number }
  /** The client's copy is current (If-None-Match named the ETag): 304, nothing looked up or run. */
  | { status: 'hit'; layer: 'etag' }
  /**
   * Computed now. Stored in `layer`, or not (`reason`: over CACHE_MAX_ENTRY_BYTES, no layer
   * could take it, or the request said `no-store`). `declined`: a stored result was found,
   * and this request's Cache-Control kept it from answering (HTTP only).
   */
  | ({ status: 'miss'; declined?: Declined } & (
      | { stored: true; layer: CacheLayer }
      | { stored: false; reason: 'too-large' | 'unavailable' | 'no-store' }
    ))
  /** Not looked up: the tool is not deterministic for this input, or its cacheTtlSec is 0 (no Cache-Status on HTTP). */
  | { status: 'bypass'; reason: 'not-deterministic' | 'off' };

/** The cache's name in Cache-Status: the hub's own cache, in front of no other. */
const CACHE_NAME = 'toolhub';

/**
 * The RFC 9211 field value of an outcome: `hit` with the `ttl` left, or `fwd` (`miss`; `request`
 * when a stored result was declined by the request's directives) with `stored` when a layer took
 * the result; `detail` names the layer, or why nothing was stored.
 */
export function cacheStatusHeader(c: CacheOutcome): string {
  switch (c.status) {
    case 'hit':
      return c.layer === 'etag'
        ? `${CACHE_NAME}; hit; detail=etag`
        : `${CACHE_NAME}; hit; ttl=${c.ttlSec}; detail=${c.layer}`;
    case 'miss': {
      const fwd = `${CACHE_NAME}; fwd=${c.declined ? 'request' : 'miss'}`;
      return c.stored ? `${fwd}; stored; detail=${c.layer}` : `${fwd}; detail=${c.reason}`;
    }
    case 'bypass':
      return `${CACHE_NAME}; fwd=bypass; detail=${c.reason}`;
  }
}
