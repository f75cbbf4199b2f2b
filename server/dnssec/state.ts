import { ALGORITHM, DIGEST_TYPE } from '#core/dns/dnssec.ts';
import { dnssecPresentation, type ZoneKeyView } from '#core/dns/dnssec-records.ts';
import { parentDsKey } from '#core/dns/rollover.ts';
import type { DnssecRollover, DnssecState } from '#core/wire/dnssec.ts';
import type { Queryable } from '../db/database.ts';
import { publicView, readSigning } from './keys.ts';
import { readRollover } from './rollover.ts';

type Algorithm = DnssecState['algorithm'];

/**
 * The contract's DnssecState of a zone, from its public key and its choices. During an algorithm rollover, the key
 * it describes (algorithm, DNSKEY, DS) is the one whose DS the parent should hold now: the old key until the new
 * DNSKEY has reached every cache, then the new one; `rollover` says both and what comes next.
 */
export async function dnssecState(q: Queryable, zone: string): Promise<DnssecState> {
  const signing = await readSigning(q, zone);
  if (!signing) return { normalizedDomainName: zone, enabled: false, algorithm: ALGORITHM, denial: 'nsec', nsec3OptOut: false, keyTag: null, dnskey: null, ds: [], dsRecords: [], rollover: null };
  const old = publicView(zone, signing.publicKey);
  const rolling = await readRollover(q, zone);
  const next = rolling ? publicView(zone, rolling.publicKey) : null;
  const view = rolling && next && parentDsKey(rolling.phase) === 'new' ? next : old;
  const text = dnssecPresentation(zone, view);
  const algorithm = view.algorithm as Algorithm;
  const keyOf = (key: ZoneKeyView) => ({ algorithm: key.algorithm as Algorithm, keyTag: key.keyTag, ds: dnssecPresentation(zone, key).ds });
  const rollover: DnssecRollover | null =
    rolling && next ? { from: keyOf(old), to: keyOf(next), phase: rolling.phase, since: rolling.since.toISOString(), nextStepAt: rolling.dueAt?.toISOString() ?? null } : null;
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
    rollover,
  };
}
