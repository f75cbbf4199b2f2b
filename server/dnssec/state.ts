import { ALGORITHM, DIGEST_TYPE } from '#core/dns/dnssec.ts';
import { dnssecPresentation } from '#core/dns/dnssec-records.ts';
import type { DnssecState } from '#core/wire/dnssec.ts';
import type { Queryable } from '../db/database.ts';
import { publicView, readPublicKey } from './keys.ts';

/** The contract's DnssecState of a zone, from its public key alone. */
export async function dnssecState(q: Queryable, zone: string): Promise<DnssecState> {
  const publicKey = await readPublicKey(q, zone);
  if (!publicKey) return { normalizedDomainName: zone, enabled: false, algorithm: ALGORITHM, keyTag: null, dnskey: null, ds: [], dsRecords: [] };
  const view = publicView(zone, publicKey);
  const text = dnssecPresentation(zone, view);
  return {
    normalizedDomainName: zone,
    enabled: true,
    algorithm: ALGORITHM,
    keyTag: view.keyTag,
    dnskey: text.dnskey,
    ds: [{ keyTag: view.keyTag, algorithm: ALGORITHM, digestType: DIGEST_TYPE, digest: text.digest }],
    dsRecords: [text.ds],
  };
}
