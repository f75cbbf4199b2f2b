import { decodeResponse, encodeQuery, type DnsResponse } from '#core/dns/message.ts';

/**
 * One question to a DNS-over-HTTPS resolver (RFC 8484, GET with ?dns=), with the DO bit so signatures come back too.
 * Locally the resolver is the service's own /dns-query; against production a public resolver (config.dohUrl). Every
 * caller asks what DNS answers now ("Live?", the overview, the zone's serial): the browser's HTTP cache is bypassed
 * (`no-store`, which also tells the resolver so), since the same question is the same URL each time.
 */
export async function askDns(dohUrl: string, name: string, type: Parameters<typeof encodeQuery>[1], signal?: AbortSignal): Promise<DnsResponse> {
  const query = encodeQuery(name, type, 0, { dnssecOk: true });
  const dns = btoa(String.fromCharCode(...query)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const response = await fetch(`${dohUrl}?dns=${dns}`, { headers: { accept: 'application/dns-message' }, cache: 'no-store', signal });
  if (!response.ok) throw new Error(`The DNS resolver answered HTTP ${response.status}`);
  return decodeResponse(new Uint8Array(await response.arrayBuffer()));
}
