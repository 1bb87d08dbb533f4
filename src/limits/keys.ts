/**
 * The limiter's Redis keys, named once. One key per client and tool holds every counter of
 * their decisions (rate windows per tier, budget, leases: src/limits/decide.ts), and its hash
 * tag (the braces) names one Redis Cluster slot. The MCP message limit counts per client
 * under a tool id no tool can have (`@mcp`: tool ids are kebab-case).
 */
export function limitKey(prefix: string, toolId: string, client: string): string {
  return `${prefix}lim:{${toolId}:${client}}`;
}

/** The key of a client's MCP messages. */
export function messageKey(prefix: string, client: string): string {
  return limitKey(prefix, '@mcp', client);
}
