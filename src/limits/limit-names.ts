import type { QuotaEntry } from '../config/quota.js';

/**
 * Limit names (docs/api.md, "Limit names"): one stable name per limit, the same in the IETF
 * RateLimit and RateLimit-Policy header fields, in `rateLimit.limitName` of a refusal, in
 * MCP's `_meta` and in GET /api/usage's header. A tool's limits start with its id; the
 * limits that are no tool's start with `@`, which no tool id has (tool ids are kebab-case),
 * so no name can be two limits.
 */

/** The caller's quotas per key, over every tool. */
export const KEY_LIMITS = '@key';
/** GET /api/usage's own rate limit. */
export const USAGE_READS_LIMIT = '@usage';
/** The MCP message limit on /mcp. */
export const MCP_MESSAGES_LIMIT = '@mcp';

/** The compute budget of a client on a tool. */
export const budgetName = (toolId: string): string => `${toolId}/budget`;
/** The client's cap on runs of a tool in flight, fleet-wide (`maxInFlightPerClient`). */
export const capName = (toolId: string): string => `${toolId}/cap`;
/** The tool's cap on runs in flight on the instance that answered (`maxInFlight`), every client together. */
export const instanceCapName = (toolId: string): string => `${toolId}/instance-cap`;

/**
 * A quota: `<toolId or @key>/<window>/<kind>`, from the `per`, `window` and `kind` that a
 * refusal's `rateLimit.quota` carries (`qr-code/day/runs`, `@key/month/computeMs`).
 */
export function quotaName(toolId: string, q: Pick<QuotaEntry, 'per' | 'window' | 'kind'>): string {
  return `${q.per === 'key' ? KEY_LIMITS : toolId}/${q.window}/${q.kind}`;
}
