import { isIPv6 } from 'node:net';

/**
 * RFC 9110 §7.2: `Host = uri-host [ ":" port ]`, uri-host being RFC 3986's host:
 * an IP-literal in brackets, or a reg-name (which covers IPv4 addresses) of unreserved
 * characters, sub-delims and %XX escapes. RFC 9110 §4.2.1 forbids an empty host in an
 * http URI, so the reg-name has at least one character. The port is digits, possibly none
 * (RFC 3986 §3.2.3 allows `host:`).
 */
const HOST = /^(?:\[([^\]]*)\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})+)(?::([0-9]*))?$/;
/** The characters of an IPv6address (RFC 3986 §3.2.2); node's isIPv6 alone takes a `%zone` too. */
const IPV6_CHARS = /^[0-9A-Fa-f:.]+$/;
/** `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`. */
const IPV_FUTURE = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;

/** The last value found valid: almost every request of an instance names the same host. */
let lastValid = '';

/** True when `value` is a well-formed Host header value (host, `[IPv6]`, either with `:port`). */
export function isValidHost(value: string): boolean {
  if (value === lastValid) return true;
  const m = HOST.exec(value);
  if (!m) return false;
  const literal = m[1];
  if (literal !== undefined && !(IPV6_CHARS.test(literal) && isIPv6(literal)) && !IPV_FUTURE.test(literal))
    return false;
  const port = m[2];
  if (port !== undefined && (port.length > 5 || Number(port) > 65535)) return false;
  lastValid = value;
  return true;
}

/** Host field lines in a request's raw headers: more than one is malformed (RFC 9112 §3.2). */
export function hostLines(rawHeaders: string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') n++;
  }
  return n;
}
