import { parseIpv4, parseIpv6 } from '#core/dns/ip.ts';

/*
 * Client addresses and networks, one way for the whole service: the HTTP rate limits and TRUSTED_PROXIES
 * (server/http/), the DNS server's transfer allow-list DNS_AXFR_ALLOW and its response-rate limiting (server/dns-server/),
 * the scan's private-address rule. The text of an address is read by the kernel's one parser (core/dns/ip.ts, which
 * the record rules use too); this file adds what a socket writes around it and the networks.
 */

/** An address as bytes: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6. */
export type Bytes = number[];

/**
 * The bytes of an address as a socket or a proxy writes it: dotted IPv4, IPv6 in any compressed or mixed form, with
 * or without a zone id (`fe80::1%eth0`), brackets or a port (`[::1]:80`, `192.0.2.1:80`). `::ffff:192.0.2.1` is the
 * IPv4 address it carries. Anything else is null.
 */
export function parseAddress(text: string): Bytes | null {
  let s = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  s = s.replace(/%.*$/, '');
  const ipv4 = parseIpv4(s);
  if (ipv4) return ipv4;
  const groups = parseIpv6(s);
  if (!groups) return null;
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

/**
 * What a client is counted as: an IPv4 address, or the /64 an IPv6 address lies in (one host is usually handed a
 * whole /64, so counting single IPv6 addresses would give it 2^64 budgets). Spelt one way whatever the input's form.
 */
export function clientKey(bytes: Bytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i] << 8) | bytes[i + 1]).toString(16).padStart(4, '0'));
  return `${groups.join(':')}::/64`;
}

export interface Cidr {
  bytes: Bytes;
  prefix: number;
}

/** `192.0.2.1`, `10.0.0.0/8`, `2001:db8::/32`, `::ffff:10.0.0.0/104` (the IPv4 /8 it maps): null when not one. */
export function parseCidr(text: string): Cidr | null {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return null;
  const bytes = parseAddress(address);
  if (!bytes) return null;
  const wasMapped = bytes.length === 4 && address.includes(':');
  let prefix = prefixText === undefined ? bytes.length * 8 : Number(prefixText);
  if (wasMapped && prefixText !== undefined) prefix -= 96;
  if (prefix < 0 || prefix > bytes.length * 8) return null;
  return { bytes, prefix };
}

/** Whether an address lies in a network (an IPv4 address is never in an IPv6 network, nor the reverse). */
export function contains(cidr: Cidr, bytes: Bytes): boolean {
  if (cidr.bytes.length !== bytes.length) return false;
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, cidr.prefix - bit))) & 0xff;
    if ((cidr.bytes[bit / 8] & mask) !== (bytes[bit / 8] & mask)) return false;
  }
  return true;
}


/** Whether an address as a socket writes it lies in one of `cidrs`; an address that cannot be read is in none. */
export function inAny(address: string | undefined, cidrs: readonly Cidr[]): boolean {
  const bytes = address === undefined ? null : parseAddress(address);
  return bytes !== null && cidrs.some((cidr) => contains(cidr, bytes));
}

/**
 * The client network an address belongs to, for the DNS server's response-rate limiting: IPv4 /24, IPv6 /56 (as BIND
 * counts them). Spelt one way whatever the input's form; an address that cannot be read is its own network.
 */
export function clientNetwork(address: string): string {
  const bytes = parseAddress(address);
  if (!bytes) return address;
  if (bytes.length === 4) return `${bytes.slice(0, 3).join('.')}.0/24`;
  const hex = bytes.slice(0, 7).map((b) => b.toString(16).padStart(2, '0'));
  return `${hex[0]}${hex[1]}:${hex[2]}${hex[3]}:${hex[4]}${hex[5]}:${hex[6]}00::/56`;
}

/**
 * Networks a request from outside must not make the service reach (the scan's old name server): loopback, private
 * (RFC 1918, unique local), shared (RFC 6598), link-local, "this network", benchmarking, multicast and reserved.
 * An IPv4-mapped IPv6 address is read as the IPv4 address it carries (parseAddress).
 */
const NOT_PUBLIC = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24', '192.168.0.0/16',
  '198.18.0.0/15', '224.0.0.0/4', '240.0.0.0/4',
  '::/127', 'fc00::/7', 'fe80::/10', 'fec0::/10', 'ff00::/8', '64:ff9b:1::/48', '100::/64',
].map((text) => parseCidr(text)!);

/** Whether an address is loopback, private, link-local or otherwise not a public unicast address; one that cannot be read counts as not public. */
export function isNonPublicAddress(address: string): boolean {
  const bytes = parseAddress(address);
  return bytes === null || NOT_PUBLIC.some((cidr) => contains(cidr, bytes));
}
