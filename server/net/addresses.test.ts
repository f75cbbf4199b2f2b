import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { clientAddressOf, clientBytesOf } from '../http/client-address.ts';
import { addressText, clientKey, isNonPublicAddress, parseAddress, parseCidr } from './addresses.ts';

const keyOf = (text: string) => {
  const bytes = parseAddress(text);
  return bytes && clientKey(bytes);
};
const trusted = (...entries: string[]) => entries.map((e) => parseCidr(e)!);

describe('client addresses', () => {
  it('count an IPv6 client by its /64, spelt one way whatever the form', () => {
    const forms = [
      '2001:db8:a:b::1',
      '2001:0DB8:000A:000B:0000:0000:0000:0001',
      '2001:db8:a:b:ffff:ffff:ffff:ffff',
      '2001:db8:a:b:1:2:192.0.2.1',
      '2001:db8:a:b::9%eth0',
      '[2001:db8:a:b::2]:443',
    ];
    for (const form of forms) expect(keyOf(form), form).toBe('2001:0db8:000a:000b::/64');
    expect(keyOf('2001:db8:a:c::1')).toBe('2001:0db8:000a:000c::/64');
    expect(keyOf('::1')).toBe('0000:0000:0000:0000::/64');
    expect(keyOf('fe80::1%25eth0')).toBe('fe80:0000:0000:0000::/64');
  });

  it('count an IPv4 client by its address, mapped into IPv6 or not', () => {
    for (const form of ['192.0.2.7', '::ffff:192.0.2.7', '::FFFF:c000:0207', '0:0:0:0:0:ffff:192.0.2.7', '[::ffff:192.0.2.7]:80', '192.0.2.7:5000']) {
      expect(keyOf(form), form).toBe('192.0.2.7');
    }
    // An IPv4-compatible or NAT64 address is an IPv6 client like any other.
    expect(keyOf('64:ff9b::192.0.2.7')).toBe('0064:ff9b:0000:0000::/64');
  });

  it('give the client’s own address, as an A or AAAA record stores it (DynDNS2 sets it)', () => {
    const own = (peer: string, forwarded?: string) => {
      const bytes = clientBytesOf(peer, forwarded, trusted('10.0.0.0/8'));
      return bytes && addressText(bytes);
    };
    expect(own('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(own('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(own('10.1.2.3', '2001:db8:a:b:0:0:0:9')).toBe('2001:db8:a:b::9');
    expect(own('198.51.100.9', '203.0.113.5')).toBe('198.51.100.9');
    expect(own('unknown')).toBeNull();
  });

  it('refuse what is not an address', () => {
    for (const text of ['', 'unknown', '1.2.3', '256.1.1.1', '1::2::3', '2001:db8::g', '1.2.3.4, 5.6.7.8', '[::1']) expect(parseAddress(text), text).toBeNull();
    for (const text of ['10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8/1', '10.0.0.0/x', 'proxy.example']) expect(parseCidr(text), text).toBeNull();
  });

  it('believe X-Forwarded-For only from a trusted proxy, and only its right-most untrusted address', () => {
    const proxies = trusted('10.0.0.0/8', '2001:db8:ffff::/48', '192.0.2.1');
    // From an untrusted peer the header is ignored: the peer is the client.
    expect(clientAddressOf('198.51.100.9', '203.0.113.5', proxies)).toBe('198.51.100.9');
    // From a trusted one, the address it saw; what the client wrote further left is not believed.
    expect(clientAddressOf('10.1.2.3', '203.0.113.5', proxies)).toBe('203.0.113.5');
    expect(clientAddressOf('::ffff:10.1.2.3', '6.6.6.6, 203.0.113.5', proxies)).toBe('203.0.113.5');
    // Trusted hops are skipped, whether CIDR or single address, IPv4 or IPv6.
    expect(clientAddressOf('10.1.2.3', '203.0.113.5, 192.0.2.1, 2001:db8:ffff:1::7', proxies)).toBe('203.0.113.5');
    expect(clientAddressOf('2001:db8:ffff::1', '2001:db8:1:2::3', proxies)).toBe('2001:0db8:0001:0002::/64');
    // A trusted peer without the header, or whose header holds only trusted hops, or garbage, is counted as itself or its last hop.
    expect(clientAddressOf('10.1.2.3', undefined, proxies)).toBe('10.1.2.3');
    expect(clientAddressOf('10.1.2.3', '10.9.9.9', proxies)).toBe('10.9.9.9');
    expect(clientAddressOf('10.1.2.3', 'unknown', proxies)).toBe('10.1.2.3');
    // The /104 of IPv4-mapped space names the same proxies as the IPv4 /8.
    expect(clientAddressOf('10.1.2.3', '203.0.113.5', trusted('::ffff:10.0.0.0/104'))).toBe('203.0.113.5');
    // No proxies trusted (the default): the header is never read.
    expect(clientAddressOf('127.0.0.1', '203.0.113.5', [])).toBe('127.0.0.1');
  });

  it('TRUSTED_PROXIES takes addresses and CIDRs, none by default, and refuses anything else at start-up', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1,2001:db8::/32' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '::1', '2001:db8::/32']);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow(/TRUSTED_PROXIES/);
  });
});

describe('public and non-public addresses (the scan\u2019s old name server)', () => {
  it('refuses loopback, private, shared, link-local and mapped forms of them; passes public unicast', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '10.1.2.3', '172.31.0.1', '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1%eth0', 'fd00::53', '::ffff:127.0.0.1', '::ffff:10.0.0.1', 'not an address']) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['192.0.2.53', '8.8.8.8', '172.32.0.1', '2001:db8::53', '2606:4700::1111']) expect(isNonPublicAddress(a), a).toBe(false);
  });
});
