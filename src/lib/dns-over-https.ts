import { decodeResponse, encodeQuery, type DnsResponse } from '#core/dns/message.ts';

/**
 * One question to a DNS-over-HTTPS resolver (RFC 8484, GET with ?dns=), with the DO bit so signatures come back too.
 * Locally the resolver is the service's own /dns-query; against production a public resolver (config.dohUrl).
 */
export async function askDns(dohUrl: string, name: string, type: Parameters<typeof encodeQuery>[1], signal?: AbortSignal): Promise<DnsResponse> {
  const query = encodeQuery(name, type, 0, { dnssecOk: true });
  const dns = btoa(String.fromCharCode(...query)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const response = await fetch(`${dohUrl}?dns=${dns}`, { headers: { accept: 'application/dns-message' }, signal });
  if (!response.ok) throw new Error(`The DNS resolver answered HTTP ${response.status}`);
  return decodeResponse(new Uint8Array(await response.arrayBuffer()));
}
