/**
 * The limiter's Redis keys, named once. The rate-limit counters are rate-limiter-flexible's
 * own layout (`<keyPrefix>:<client>` with keyPrefix `<prefix>rl:<name>`), so the library and
 * the batched check count on the same keys. The budget and slot keys carry a hash tag (the
 * braces): both keys of one client and tool share a Redis Cluster slot. check.lua
 * (src/limits/lua/) builds the same names from their parts; src/limits/shared-check.test.ts
 * checks that they agree.
 */

/** The rate counters' name: the tool id, or `<toolId>:<tier>` for a tier's own counters. */
export function rateName(toolId: string, tier: string): string {
  return tier ? `${toolId}:${tier}` : toolId;
}

/** `name`: see rateName. */
export function rateKeyPrefix(prefix: string, name: string): { main: string; burst: string } {
  return { main: `${prefix}rl:${name}`, burst: `${prefix}rlb:${name}` };
}

export function budgetKey(prefix: string, toolId: string, client: string): string {
  return `${prefix}budget:{${toolId}:${client}}`;
}

/** The client's leases on the tool: a sorted set of lease ids scored by their deadlines. */
export function slotKey(prefix: string, toolId: string, client: string): string {
  return `${prefix}lease:{${toolId}:${client}}`;
}
