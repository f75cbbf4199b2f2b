import { clientKey, contains, parseAddress, type Bytes, type Cidr } from '../net/addresses.ts';

/**
 * The client a request is counted as. Its peer (the socket's address) is the client, unless the peer is one of
 * `trusted` (TRUSTED_PROXIES): then X-Forwarded-For is read from the right, each trusted hop skipped, and the first
 * address not trusted is the client. Only that end of the header is believed: a client may write anything on the left.
 * A header entry that is not an address ends the walk at the last trusted hop, which is then counted as the client.
 */
export function clientAddressOf(peer: string, forwardedFor: string | undefined, trusted: readonly Cidr[]): string {
  const client = clientBytesOf(peer, forwardedFor, trusted);
  return client ? clientKey(client) : peer;
}

/** The client's own address by the same walk (DynDNS2's sender, whose address it sets): null when the peer is not an address. */
export function clientBytesOf(peer: string, forwardedFor: string | undefined, trusted: readonly Cidr[]): Bytes | null {
  const peerBytes = parseAddress(peer);
  if (!peerBytes) return null;
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
  return client;
}
