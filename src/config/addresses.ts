import { isIP } from 'node:net';
import { ConfigError } from './env.js';

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** Names proxy-addr (fastify's trust-proxy engine) accepts besides addresses. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * HOST must be an IP address or a host name. A dotted-decimal value that is not a valid
 * IPv4 address (999.1.1.1) is refused here: the resolver would otherwise fail at listen
 * time with a bare getaddrinfo error.
 */
export function checkHost(host: string): string {
  const ok = isIP(host) !== 0 || (!/^[\d.]+$/.test(host) && HOST_NAME.test(host));
  if (!ok) throw new ConfigError(`HOST=${JSON.stringify(host)} is not an IP address or a host name`);
  return host;
}

/**
 * TRUST_PROXY: `false`/`0` (the TCP peer is the client), `true` (trust every proxy), a hop
 * count, or a comma list of proxy addresses, CIDR ranges or proxy-addr's names. Checked
 * here so that a typo stops the boot naming the variable, not with fastify's TypeError.
 */
export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'false' || value === '0' || value === '') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((entry) => !PROXY_NAMES.has(entry) && !isAddressOrRange(entry));
  if (bad !== undefined || entries.length === 0) {
    throw new ConfigError(
      `TRUST_PROXY=${JSON.stringify(value)}: ${JSON.stringify(bad ?? value)} is not true, false, a hop count, an IP address, a CIDR range or one of loopback, linklocal, uniquelocal`,
    );
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  // A prefix length, or (IPv4) a dotted netmask as proxy-addr allows.
  if (/^\d{1,3}$/.test(bits)) return Number(bits) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(bits) === 4;
}
