import { canonicalIpv6, isIpv4 } from './ip.ts';
import { withoutTrailingDot } from './names.ts';
import { fail, ok, type Result } from './types.ts';

/** A name server as a person types it for the scan: `ns1.old-provider.net`, `192.0.2.53:5353`, `[2001:db8::53]:53`. */
export interface NameServer {
  /** A lowercase host name without its trailing dot, or an address (IPv6 without brackets). */
  host: string;
  port: number;
  /** Whether `host` is an address (no look-up needed). */
  isAddress: boolean;
}

const HOST_LABEL = /^[a-z0-9_]([a-z0-9-]*[a-z0-9_])?$/;

/** Reads `host[:port]` (port 53 unless given; an IPv6 address in brackets when a port follows). */
export function parseNameServer(input: string): Result<NameServer> {
  const text = input.trim();
  const example = 'ns1.old-provider.net, 192.0.2.53 or [2001:db8::53]:53';
  if (text === '') return fail(`Enter the old provider\u2019s name server, as ${example}`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('/')) return fail(`A name server is a host name or an address, as ${example}, not a web address`);
  let host = text;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    [, host, portText] = bracketed;
    if (!canonicalIpv6(host)) return fail(`${host} is not an IPv6 address`);
  } else if (text.includes(':') && text.indexOf(':') !== text.lastIndexOf(':')) {
    // Two colons or more: an IPv6 address without a port.
    if (!canonicalIpv6(text)) return fail(`${text} is not an IPv6 address; write one with a port as [2001:db8::53]:53`);
  } else if (text.includes(':')) {
    [host, portText] = text.split(':');
  }
  let port = 53;
  if (portText !== undefined) {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) return fail(`The port must be a number from 1 to 65535, as in ${example}`);
    port = Number(portText);
  }
  if (host.includes(':')) return ok({ host: canonicalIpv6(host)!, port, isAddress: true });
  const name = withoutTrailingDot(host.toLowerCase());
  if (isIpv4(name)) return ok({ host: name, port, isAddress: true });
  if (/^[\d.]+$/.test(name)) return fail(`${host} is not an IPv4 address`);
  const labels = name.split('.');
  if (name.length > 253 || labels.length < 2 || !labels.every((l) => l.length <= 63 && HOST_LABEL.test(l))) {
    return fail(`${host} is not a host name: enter one as ${example}`);
  }
  return ok({ host: name, port, isAddress: false });
}
