import { canonicalIpv6, isIpv4 } from '#core/dns/ip.ts';
import type { AddressType } from '../../zones/addresses.ts';

/*
 * What a DynDNS2 request asks, read without touching anything: the credentials, the hostnames and the addresses.
 * DynDNS2 is ddclient's, inadyn's and most routers' protocol (Dyn's `/nic/update`): see docs/service/doors.md.
 */

/** At most this many hostnames in one request (the protocol's `numhost` beyond: Dyn's own limit). */
export const MAX_HOSTNAMES = 20;

/** The key's id and the key, from HTTP Basic auth (user = the key's id, password = the key); null when absent or malformed. */
export function basicCredentials(authorization: string | undefined): { keyId: string; key: string } | null {
  const match = authorization?.match(/^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i);
  if (!match) return null;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  return { keyId: text.slice(0, colon).trim().toLowerCase(), key: text.slice(colon + 1).trim() };
}

/** One hostname as sent: the plain FQDN, or null when it is not one (`notfqdn`). */
export function fqdnOf(text: string): string | null {
  const name = text.trim().toLowerCase().replace(/\.$/, '');
  if (name.length === 0 || name.length > 253) return null;
  const labels = name.split('.');
  if (labels.length < 2) return null;
  return labels.every((label) => /^[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9_])?$/.test(label)) ? name : null;
}

/** The hostnames of `hostname=a,b`, as sent (each checked on its own: one bad name gets its own `notfqdn`). */
export const hostnamesOf = (param: string | null): string[] => (param ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '');

export type AddressesAsked = { ok: true; addresses: Partial<Record<AddressType, string>> } | { ok: false };

/**
 * `myip=<ip>[,<ip>]`: at most one IPv4 and one IPv6 address, each in its stored form (an IPv4-mapped IPv6 address is
 * the IPv4 address it carries). Anything else (a name, a network, two of one family) is not an address: refused.
 */
export function addressesOf(param: string): AddressesAsked {
  const addresses: Partial<Record<AddressType, string>> = {};
  const parts = param.split(',').map((p) => p.trim());
  if (parts.length > 2) return { ok: false };
  for (const part of parts) {
    const address = addressOf(part);
    if (!address || addresses[address.type] !== undefined) return { ok: false };
    addresses[address.type] = address.text;
  }
  return { ok: true, addresses };
}

function addressOf(text: string): { type: AddressType; text: string } | null {
  if (isIpv4(text)) return { type: 'A', text };
  const v6 = canonicalIpv6(text);
  if (!v6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  return mapped ? { type: 'A', text: mapped[1] } : { type: 'AAAA', text: v6 };
}
