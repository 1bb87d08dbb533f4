import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is on the public internet: ipaddr.js names every special range
 * (private, loopback, link-local, CGNAT, unique-local, multicast, documentation, 6to4 and
 * Teredo, which can carry a private IPv4 inside), and only plain unicast is public. An
 * IPv4-mapped IPv6 address is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** A webhook URL as the hub accepts it: http or https, no credentials, at most 2,048 characters. */
export function checkWebhookUrl(text: string): URL {
  if (text.length > 2048) throw new AddressRefused('callbackUrl is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AddressRefused('callbackUrl is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AddressRefused('callbackUrl must be an http or https URL');
  if (url.username || url.password) throw new AddressRefused('callbackUrl must not carry credentials');
  return url;
}

/**
 * The addresses a webhook may connect to for this host, resolved once: every address the
 * name resolves to must be public (a name that also resolves to 10.0.0.1 is refused), unless
 * the operator allows private ones (WEBHOOK_ALLOW_PRIVATE_ADDRESSES). The connection then
 * goes to an address checked here, never to a second lookup (DNS rebinding).
 */
export async function resolveAllowed(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string; family: number }[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const found = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await lookup(bare, { all: true, verbatim: true }).catch((err: NodeJS.ErrnoException) => {
        throw new AddressRefused(
          `callbackUrl host ${host.slice(0, 200)} does not resolve (${err.code ?? 'error'})`,
        );
      });
  if (found.length === 0) throw new AddressRefused(`callbackUrl host ${host.slice(0, 200)} does not resolve`);
  if (!allowPrivate) {
    const inner = found.find((a) => !isPublicAddress(a.address));
    if (inner) {
      throw new AddressRefused(
        `callbackUrl host ${host.slice(0, 200)} is ${inner.address}, a private, loopback or link-local address; webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)`,
      );
    }
  }
  return found;
}
