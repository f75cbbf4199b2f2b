import { queryOptions } from '@tanstack/react-query';
import { rcodeName } from '#core/dns/message.ts';
import { askDns } from '@/lib/dns-over-https.ts';
import { answersKey } from '@/lib/query-keys.ts';

export interface ApexDns {
  /** NOERROR, NXDOMAIN, SERVFAIL… for the address question. */
  status: string;
  /** The addresses DNS answers for the apex now (A, or AAAA when it has no A). */
  addresses: string[];
  /** The name servers DNS names for the zone (its apex NS set). */
  nameServers: string[];
}

/**
 * What DNS answers for the domain itself right now, through the configured DoH resolver: its addresses (is it
 * working?) and its name servers. Part of the zone's `answers` fact, so every change of the zone asks again (the
 * refresh rule), and keyed by the apex's addresses as the records list them, so a change of them asks at once. Two
 * questions (three when the apex has only IPv6), never answered from the browser's HTTP cache (askDns).
 */
export function apexDnsQuery(dohUrl: string, domain: string, listedApex: string) {
  return queryOptions<ApexDns>({
    queryKey: answersKey(domain, 'apex', listedApex),
    queryFn: async ({ signal }) => {
      const [a, ns] = await Promise.all([askDns(dohUrl, domain, 'A', signal), askDns(dohUrl, domain, 'NS', signal)]);
      let addresses = a.answers.filter((r) => r.type === 'A').map((r) => r.rdata);
      if (addresses.length === 0 && a.rcode === 0) {
        const aaaa = await askDns(dohUrl, domain, 'AAAA', signal);
        addresses = aaaa.answers.filter((r) => r.type === 'AAAA').map((r) => r.rdata);
      }
      return { status: rcodeName(a.rcode), addresses, nameServers: ns.answers.filter((r) => r.type === 'NS').map((r) => r.rdata.replace(/\.$/, '')).sort() };
    },
    enabled: domain !== '',
    staleTime: 60_000,
    retry: 1,
  });
}
