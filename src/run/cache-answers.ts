import type { CacheOutcome } from '../cache/cache-status.js';
import type { Declined } from '../cache/request-directives.js';
import type { CacheHit } from '../cache/result-cache.js';
import type { RunAddress } from '../cache/run-cache.js';
import { HubError } from '../errors.js';
import type { RateReport } from '../limits/rate-report.js';

/** A hit's outcome: its layer, the seconds it has left and, when its write time is known, its age. */
export function hitOutcome(hit: CacheHit): CacheOutcome {
  if (hit.storedAt === undefined) return { status: 'hit', layer: hit.layer, ttlSec: hit.ttlSec };
  const ageSec = Math.max(0, Math.floor((Date.now() - hit.storedAt) / 1000));
  return { status: 'hit', layer: hit.layer, ttlSec: hit.ttlSec, ageSec };
}

/**
 * `Cache-Control: only-if-cached` and no stored result may answer: 504, as RFC 9111 (5.2.1.7)
 * says, with nothing run. Its code is TIMEOUT, the contract's code of 504 (docs/api.md,
 * "Result cache and ETags", says why); the message says which, and why nothing was stored.
 */
export function onlyIfCachedMiss(
  toolId: string,
  address: RunAddress | null,
  ttlSec: number,
  declined: Declined | undefined,
  rate: RateReport,
): HubError {
  const why =
    address === null
      ? `${toolId} is not deterministic for this input, so its result is never stored`
      : ttlSec <= 0
        ? `${toolId} keeps no results (its cacheTtlSec is 0)`
        : declined
          ? `the stored result does not meet this request's ${declined}`
          : 'no result is stored for this input';
  return new HubError(
    'TIMEOUT',
    `only-if-cached: ${why}; nothing ran (send the request without only-if-cached to compute it)`,
    { headers: rate.headers, rateLimit: rate.info },
  );
}
