/** The hosts an MCP request may name in Host/Origin unless MCP_ALLOWED_HOSTS says otherwise. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]', '::1'];

/**
 * The host names the MCP endpoint accepts in `Host` and `Origin` (DNS-rebinding
 * protection: a page that resolves its own name to this machine cannot reach /mcp from a
 * browser). MCP_ALLOWED_HOSTS (comma list) replaces the default: the loopback names, the
 * host of PUBLIC_BASE_URL and HOST when it is a specific address. `*` switches it off.
 */
export function mcpAllowedHosts(
  setting: string,
  host: string,
  publicBaseUrl: string | undefined,
): string[] | null {
  const listed = setting
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (listed.includes('*')) return null;
  if (listed.length > 0) return listed;
  const hosts = [...LOOPBACK];
  if (publicBaseUrl) hosts.push(new URL(publicBaseUrl).hostname.toLowerCase());
  if (host !== '0.0.0.0' && host !== '::') hosts.push(host.toLowerCase());
  return [...new Set(hosts)];
}
