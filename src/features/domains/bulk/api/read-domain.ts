import { isApiError } from '@/lib/api/errors.ts';
import type { Api } from '@/lib/api/use-api.ts';
import type { DomainState } from '../model/actions.ts';

/** What a plan reads besides the records, where the service has it (ours): forwarding, DNSSEC. */
export interface ReadExtras {
  forwarding: boolean;
  dnssec: boolean;
}

/** A domain as a plan reads it: its records, and its forwarding and DNSSEC state where the service has them. */
export async function readDomain(api: Api, domain: string, extras: ReadExtras): Promise<DomainState> {
  const [records, forwarding, dnssec] = await Promise.all([
    api.call('getDnsRecords', { query: { zoneName: domain } }),
    extras.forwarding ? api.call('getForwarding', { query: { normalizedDomainName: domain } }) : Promise.resolve(null),
    extras.dnssec ? api.call('getDnssec', { query: { normalizedDomainName: domain } }).catch(unlessUnknownPath) : Promise.resolve(null),
  ]);
  return { domain, records, forwarding, ...(dnssec ? { dnssec: dnssec.enabled } : {}) };
}

/** A service without the operation answers an unknown path: the state is then not known, and the plan says DNSSEC needs ours. */
function unlessUnknownPath(error: unknown): null {
  if (isApiError(error) && (error.status === 405 || error.status === 501 || (error.status === 404 && !error.message.startsWith('No domain ')))) return null;
  throw error;
}
