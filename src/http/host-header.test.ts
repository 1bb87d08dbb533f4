import { describe, expect, it } from 'vitest';
import { hostLines, isValidHost } from './host-header.js';

describe('isValidHost (RFC 9110 §7.2, RFC 3986 §3.2.2)', () => {
  it.each([
    'localhost',
    'localhost:3000',
    '127.0.0.1:8080',
    'hub.example.com',
    'HUB.Example.COM:443',
    'xn--bcher-kva.example',
    'exa_mple.com', // unreserved
    'ex%61mple.com', // pct-encoded
    "a!$&'()*+,;=b", // sub-delims
    '999.1.1.1', // a reg-name by the grammar
    'host:', // an empty port (RFC 3986 §3.2.3)
    'host:0',
    'host:65535',
    '[::1]',
    '[::1]:80',
    '[::1]:',
    '[fe80::1:2]:3000',
    '[::ffff:127.0.0.1]:443',
    '[2001:DB8::A]',
    '[v1.fe80::a+en1]', // IPvFuture
  ])('takes %j', (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each([
    '',
    ':80',
    'x@127.0.0.1',
    'user:pass@localhost',
    'a b',
    ' localhost',
    'localhost ',
    'local\thost',
    'localhost:99999',
    'localhost:65536',
    'localhost:123456',
    'localhost:abc',
    'localhost:-1',
    'localhost:80:90',
    'a/b',
    'a\\b',
    'a?b',
    'a#b',
    '"localhost"',
    '<script>',
    'exämple.com',
    'ex%6',
    'ex%zzmple.com',
    '::1',
    '[::1',
    '::1]',
    '[::1]]',
    '[::1]x',
    '[]',
    '[zz::1]',
    '[1:2:3:4:5:6:7:8:9]',
    '[fe80::1%eth0]',
    '[fe80::1%25eth0]',
    '[127.0.0.1]',
    '[v1.]',
  ])('refuses %j', (host) => {
    expect(isValidHost(host)).toBe(false);
  });

  it('does not let a valid value it remembers stand for another', () => {
    expect(isValidHost('localhost:3000')).toBe(true);
    expect(isValidHost('localhost:3000 ')).toBe(false);
    expect(isValidHost('localhost:3000')).toBe(true);
  });
});

describe('hostLines', () => {
  it('counts Host field lines whatever their case', () => {
    expect(hostLines([])).toBe(0);
    expect(hostLines(['Host', 'a', 'Accept', '*/*'])).toBe(1);
    expect(hostLines(['host', 'a', 'HOST', 'b', 'X-Host', 'c'])).toBe(2);
  });
});
