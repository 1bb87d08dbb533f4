const HOUR_MS = 3_600_000;

/**
 * The wait before attempt `attemptsMade + 1` of a delivery (docs/api.md, "Webhooks"): the
 * receiver's Retry-After when it sent one, else `baseMs · 2^(attemptsMade − 1)`, at most an
 * hour, less up to half of it at random, so that deliveries failed together do not return
 * together. `random` is Math.random outside the tests.
 */
export function webhookBackoff(
  attemptsMade: number,
  baseMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, HOUR_MS);
  const full = Math.min(baseMs * 2 ** Math.max(0, attemptsMade - 1), HOUR_MS);
  return Math.round(full - (full / 2) * random());
}
