import type { Api } from '@/lib/api/use-api.ts';
import type { DomainState } from '../model/actions.ts';

/** A domain as a plan reads it: its records, and its forwarding where the service has it (ours). */
export async function readDomain(api: Api, domain: string, withForwarding: boolean): Promise<DomainState> {
  const [records, forwarding] = await Promise.all([
    api.call('getDnsRecords', { query: { zoneName: domain } }),
    withForwarding ? api.call('getForwarding', { query: { normalizedDomainName: domain } }) : Promise.resolve(null),
  ]);
  return { domain, records, forwarding };
}
