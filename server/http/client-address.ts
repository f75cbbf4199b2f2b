import { isIPv4, isIPv6 } from 'node:net';

/** An address as bytes: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6. */
type Bytes = number[];

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
  if (isIPv4(s)) return s.split('.').map(Number);
  if (!isIPv6(s)) return null;
  const bytes = ipv6Bytes(s);
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

function ipv6Bytes(s: string): Bytes {
  const groupsOf = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((g) => {
      if (g.includes('.')) {
        const [a, b, c, d] = g.split('.').map(Number);
        return [(a << 8) | b, (c << 8) | d];
      }
      return [parseInt(g, 16)];
    });
  };
  const [head, tail] = s.split('::');
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
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

interface Cidr {
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

function contains(cidr: Cidr, bytes: Bytes): boolean {
  if (cidr.bytes.length !== bytes.length) return false;
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const mask = (0xff << (8 - Math.min(8, cidr.prefix - bit))) & 0xff;
    if ((cidr.bytes[bit / 8] & mask) !== (bytes[bit / 8] & mask)) return false;
  }
  return true;
}

/**
 * The client a request is counted as. Its peer (the socket's address) is the client, unless the peer is one of
 * `trusted` (TRUSTED_PROXIES): then X-Forwarded-For is read from the right, each trusted hop skipped, and the first
 * address not trusted is the client. Only that end of the header is believed: a client may write anything on the left.
 * A header entry that is not an address ends the walk at the last trusted hop, which is then counted as the client.
 */
export function clientAddressOf(peer: string, forwardedFor: string | undefined, trusted: readonly Cidr[]): string {
  const peerBytes = parseAddress(peer);
  if (!peerBytes) return peer;
  const isTrusted = (bytes: Bytes) => trusted.some((cidr) => contains(cidr, bytes));
  let client = peerBytes;
  if (forwardedFor && isTrusted(client)) {
    const hops = forwardedFor.split(',').reverse();
    for (const hop of hops) {
      const bytes = parseAddress(hop);
      if (!bytes) break;
      client = bytes;
      if (!isTrusted(bytes)) break;
    }
  }
  return clientKey(client);
}
