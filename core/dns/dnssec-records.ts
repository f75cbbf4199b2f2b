import { publishedKeys, type RolloverPhase } from './rollover.ts';
import { DIGEST_TYPE, DNSKEY_TTL, dnskeyRdata, dsRdata, keyTag, KSK_FLAGS, toBase64, toHex, type DnssecRecordType } from './dnssec.ts';

/**
 * The managed records a signed zone serves at its apex besides the signatures: its key (DNSKEY), and the same key
 * and its DS again as CDNSKEY and CDS (RFC 7344), so a parent that polls can take the DS without the owner copying it.
 * Like parking's records they are the service's, read-only, derived from the zone's key alone.
 */
export interface DnssecApexRecord {
  name: '@';
  type: DnssecRecordType;
  ttl: number;
  /** Presentation form, as dig prints it. */
  rdata: string;
  wire: Uint8Array;
}

export interface ZoneKeyView {
  keyTag: number;
  /** 13 (P-256) or 15 (Ed25519): the DNSKEY's algorithm field. */
  algorithm: number;
  dnskey: Uint8Array;
  /** SHA-256 of the zone's name and the DNSKEY data (dsDigestInput). */
  digest: Uint8Array;
}

export function zoneKeyView(publicKey: Uint8Array, digestOf: (dnskey: Uint8Array) => Uint8Array): ZoneKeyView {
  const dnskey = dnskeyRdata(publicKey);
  return { keyTag: keyTag(dnskey), algorithm: dnskey[3], dnskey, digest: digestOf(dnskey) };
}

const dnskeyText = (dnskey: Uint8Array) => `${KSK_FLAGS} 3 ${dnskey[3]} ${toBase64(dnskey.subarray(4))}`;
const dsText = (key: ZoneKeyView) => `${key.keyTag} ${key.algorithm} ${DIGEST_TYPE} ${toHex(key.digest).toUpperCase()}`;

/** A rollover under way: the new key, and the phase that says which keys the apex publishes (./rollover.ts). */
export interface ApexRollover {
  key: ZoneKeyView;
  phase: RolloverPhase;
}

/**
 * The apex's DNSKEY set and the CDNSKEY and CDS of the key the parent should hold: the zone's key alone, or during an
 * algorithm rollover the keys its phase publishes.
 */
export function dnssecApexRecords(key: ZoneKeyView, rollover?: ApexRollover | null): DnssecApexRecord[] {
  const published = rollover ? publishedKeys(rollover.phase) : { dnskey: ['old' as const], cds: 'old' as const };
  const which = (k: 'old' | 'new') => (k === 'old' ? key : (rollover as ApexRollover).key);
  const parent = which(published.cds);
  return [
    ...published.dnskey.map((k) => ({ name: '@' as const, type: 'DNSKEY' as const, ttl: DNSKEY_TTL, rdata: dnskeyText(which(k).dnskey), wire: which(k).dnskey })),
    { name: '@', type: 'CDNSKEY', ttl: DNSKEY_TTL, rdata: dnskeyText(parent.dnskey), wire: parent.dnskey },
    { name: '@', type: 'CDS', ttl: DNSKEY_TTL, rdata: dsText(parent), wire: dsRdata(parent.keyTag, parent.algorithm, parent.digest) },
  ];
}

/** The DS and DNSKEY records in the presentation form a registrar or a parent zone asks for. */
export function dnssecPresentation(zone: string, key: ZoneKeyView) {
  return {
    dnskey: `${zone}. ${DNSKEY_TTL} IN DNSKEY ${dnskeyText(key.dnskey)}`,
    ds: `${zone}. ${DNSKEY_TTL} IN DS ${dsText(key)}`,
    digest: toHex(key.digest).toUpperCase(),
  };
}
