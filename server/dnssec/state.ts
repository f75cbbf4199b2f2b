import { ALGORITHM, DIGEST_TYPE } from '#core/dns/dnssec.ts';
import { dnssecPresentation } from '#core/dns/dnssec-records.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import type { Queryable } from '../db/database.ts';
import { publicView, readSigning } from './keys.ts';

/** The contract's DnssecState of a zone, from its public key and its choices. */
export async function dnssecState(q: Queryable, zone: string): Promise<DnssecState> {
  const signing = await readSigning(q, zone);
  if (!signing) return { normalizedDomainName: zone, enabled: false, algorithm: ALGORITHM, denial: 'nsec', nsec3OptOut: false, keyTag: null, dnskey: null, ds: [], dsRecords: [] };
  const view = publicView(zone, signing.publicKey);
  const text = dnssecPresentation(zone, view);
  const algorithm = view.algorithm as DnssecState['algorithm'];
  return {
    normalizedDomainName: zone,
    enabled: true,
    algorithm,
    denial: signing.denial,
    nsec3OptOut: signing.nsec3OptOut,
    keyTag: view.keyTag,
    dnskey: text.dnskey,
    ds: [{ keyTag: view.keyTag, algorithm, digestType: DIGEST_TYPE, digest: text.digest }],
    dsRecords: [text.ds],
  };
}
