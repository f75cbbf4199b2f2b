import { decodeResponse, encodeQuery, rcodeName, type DnsAnswer } from '@/core/dns/message.ts';
import type { RecordType } from '@/core/wire/dns.ts';

export interface LiveCheck {
  /** True when DNS answers this very record now. */
  live: boolean;
  /** What DNS answers for the name and type now (a CNAME chain included). */
  answers: DnsAnswer[];
  /** NOERROR, NXDOMAIN… */
  status: string;
  /** Seconds a resolver may keep its answer: how long until caches everywhere see a change of this record. */
  ttlLeft: number | null;
}

/**
 * Asks the configured DoH resolver (RFC 8484, GET with ?dns=) what DNS answers for a record now. Locally that is the
 * service's own /dns-query; against production a public resolver. Its answer's TTL is what caches may still hold.
 */
export async function checkLive(dohUrl: string, record: { fqdn: string; type: RecordType; rdata: string }, signal?: AbortSignal): Promise<LiveCheck> {
  const query = encodeQuery(record.fqdn, record.type);
  const dns = btoa(String.fromCharCode(...query)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const response = await fetch(`${dohUrl}?dns=${dns}`, { headers: { accept: 'application/dns-message' }, signal });
  if (!response.ok) throw new Error(`The DNS resolver answered HTTP ${response.status}`);
  const decoded = decodeResponse(new Uint8Array(await response.arrayBuffer()));
  const own = decoded.answers.filter((a) => a.name === record.fqdn.replace(/\.$/, '').toLowerCase() && a.type === record.type);
  const match = own.find((a) => a.rdata === record.rdata);
  return { live: match !== undefined, answers: decoded.answers, status: rcodeName(decoded.rcode), ttlLeft: match?.ttl ?? own[0]?.ttl ?? null };
}
