import { describe, expect, it } from 'vitest';
import { checkHost, parseTrustProxy } from './addresses.js';

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, ::1, loopback', ['10.0.0.0/8', '::1', 'loopback']],
    ['192.168.0.0/255.255.0.0', ['192.168.0.0/255.255.0.0']],
  ])('%s is read', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });

  it.each(['maybe', '10.0.0.1,nope', '10.0.0.0/33', '::1/129', '10.0.0.1/8/2', ','])(
    '%s stops the boot naming the variable',
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/^TRUST_PROXY=/);
    },
  );
});

describe('HOST', () => {
  it.each(['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'hub.internal', 'my-host'])(
    '%s is accepted',
    (h) => {
      expect(checkHost(h)).toBe(h);
    },
  );
  it.each(['999.1.1.1', '1.2.3', 'bad_host', '-x', 'a..b', 'http://x'])('%s stops the boot', (h) => {
    expect(() => checkHost(h)).toThrow(/^HOST=.* is not an IP address or a host name/);
  });
});
