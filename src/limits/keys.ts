/**
 * The limiter's Redis keys, named once. Per client and tool, one hash holds the counters of
 * their decisions (rate windows per tier, budget) and one sorted set beside it the leases
 * (src/limits/decide.ts); their hash tag (the braces) puts both in one Redis Cluster slot. The MCP message limit counts per client
 * under a tool id no tool can have (`@mcp`: tool ids are kebab-case).
 */
export function limitKey(prefix: string, toolId: string, client: string): string {
  return `${prefix}lim:{${toolId}:${client}}`;
}

/** The sorted set of leases beside a counters key. */
export function leasesKey(key: string): string {
  return `${key}:l`;
}

/** The key of a client's MCP messages. */
export function messageKey(prefix: string, client: string): string {
  return limitKey(prefix, '@mcp', client);
}
