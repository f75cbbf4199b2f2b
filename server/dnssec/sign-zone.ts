import { sign, type KeyObject } from 'node:crypto';
import {
  ALGORITHM,
  canonicalRdata,
  concatBytes,
  DNSSEC_TYPE_NUMBERS,
  nsecRdata,
  rrsigHeader,
  rrsigLabelCount,
  signedData,
  typeNumber,
} from '../../src/core/dns/dnssec.ts';
import { ancestorsOf, canonicalKey, toAbsolute } from '../../src/core/dns/names.ts';
import type { RecordType } from '../../src/core/wire/dns.ts';

/**
 * Signatures are valid for 14 days from the zone's signing epoch, less an hour before it (clock skew); the epoch
 * moves, and the serial with it, when less than 3 days are left (server/zones/signature-renewal.ts, a change through
 * the zone-change pipeline).
 */
export const VALIDITY_SECONDS = 14 * 86400;
export const RENEW_SECONDS = 3 * 86400;
const INCEPTION_SKEW_SECONDS = 3600;

export interface SigningKey {
  keyTag: number;
  /** The DNSKEY data; the cache of signatures belongs to it. */
  dnskey: Uint8Array;
  privateKey: KeyObject;
}

/** A set as the signer reads it: presentation data, or wire data for DNSSEC's own apex records. */
export interface SignableSet {
  type: RecordType | 'DNSKEY' | 'CDS' | 'CDNSKEY';
  ttl: number;
  rdatas: string[];
  wire?: Uint8Array[];
}

/**
 * Signatures kept from the previous signing of a zone, by the content they cover: a change re-signs only the sets
 * it changed, the SOA, and the NSEC records around changed names. Everything else is taken as it was while it was
 * made from the same signing epoch.
 */
export interface SignatureCache {
  dnskey: Uint8Array;
  /** By the content signed; an NSEC's entry keeps its data too. */
  entries: Map<string, { rrsig: Uint8Array; expiration: number; data?: Uint8Array }>;
  /** The chain in canonical order, so a change sorts only the names it adds. */
  chain: ChainEntry[];
}

interface ChainEntry {
  rel: string;
  key: string;
}

/** Up to this many new names are put in place one by one; more, and the whole chain is sorted again. */
const INSERT_LIMIT = 64;

export interface SignedZone {
  keyTag: number;
  /** RRSIG data by relative owner name and covered type number. */
  rrsigs: Map<string, Map<number, Uint8Array>>;
  /** NSEC data by relative owner name. */
  nsec: Map<string, Uint8Array>;
  nsecTtl: number;
  /** Owners of the NSEC chain in canonical order, and their canonical keys (same order) for binary search. */
  chain: string[];
  chainKeys: string[];
  /** When (ms since 1970) the signatures have RENEW_SECONDS left: the renewal moves the zone's signing epoch then. */
  renewAt: number;
  cache: SignatureCache;
  /** Signatures made this time (the rest came from the cache). */
  made: number;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Signs a zone as BIND's inline signing does (RFC 4035 §2): an RRSIG over every authoritative set (the apex's
 * SOA, NS and DNSKEY included; at a delegation only DS; nothing below one, where glue lives) and one NSEC per
 * authoritative name, chained in canonical order and back to the apex, listing the types there plus RRSIG and NSEC.
 */
export function signZone(
  zone: string,
  nodes: Map<string, Map<string, SignableSet>>,
  key: SigningKey,
  options: { epoch: Date; nsecTtl: number; previous?: SignatureCache },
): SignedZone {
  // Every signature is dated from the zone's epoch, not the clock: the same zone signs the same dates anywhere.
  const epoch = Math.floor(options.epoch.getTime() / 1000);
  const expiration = epoch + VALIDITY_SECONDS;
  const previous = options.previous && sameBytes(options.previous.dnskey, key.dnskey) ? options.previous.entries : new Map();
  const entries: SignatureCache['entries'] = new Map();
  const signer = `${zone}.`;
  let made = 0;

  const signSet = (cacheKey: string, owner: string, type: number, ttl: number, rdatas: () => Uint8Array[], data?: () => Uint8Array): { rrsig: Uint8Array; data?: Uint8Array } => {
    let entry = previous.get(cacheKey);
    if (!entry || entry.expiration !== expiration) {
      const signedRdatas = data ? [data()] : rdatas();
      const header = rrsigHeader({
        typeCovered: type,
        algorithm: ALGORITHM,
        labels: rrsigLabelCount(owner),
        originalTtl: ttl,
        expiration,
        inception: epoch - INCEPTION_SKEW_SECONDS,
        keyTag: key.keyTag,
        signer,
      });
      const signature = sign('sha256', signedData(header, owner, type, ttl, signedRdatas), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
      entry = { rrsig: concatBytes([header, signature]), expiration, ...(data ? { data: signedRdatas[0] } : {}) };
      made += 1;
    }
    entries.set(cacheKey, entry);
    return entry;
  };

  const cuts = new Set([...nodes].filter(([rel, node]) => rel !== '@' && node.has('NS')).map(([rel]) => rel));
  const occluded = (rel: string) => cuts.size > 0 && ancestorsOf(rel).some((a) => cuts.has(a));
  const chain = orderChain(zone, [...nodes.keys()].filter((rel) => !occluded(rel)), options.previous?.chain);

  const rrsigs = new Map<string, Map<number, Uint8Array>>();
  const nsec = new Map<string, Uint8Array>();
  chain.forEach(({ rel }, i) => {
    const node = nodes.get(rel) as Map<string, SignableSet>;
    const owner = toAbsolute(rel, zone, true);
    const cut = cuts.has(rel);
    const signatures = new Map<number, Uint8Array>();
    const types: number[] = [DNSSEC_TYPE_NUMBERS.RRSIG, DNSSEC_TYPE_NUMBERS.NSEC];
    for (const set of node.values()) {
      const type = typeNumber(set.type);
      types.push(type);
      if (cut && set.type !== 'DS') continue;
      const cacheKey = `${rel}\u0000${set.type}\u0000${set.ttl}\u0000${set.rdatas.join('\u0001')}`;
      const wire = () => set.wire ?? set.rdatas.map((r) => canonicalRdata(set.type as RecordType, r));
      signatures.set(type, signSet(cacheKey, owner, type, set.ttl, wire).rrsig);
    }
    const next = toAbsolute(chain[(i + 1) % chain.length].rel, zone, true);
    types.sort((a, b) => a - b);
    const nsecKey = `${rel}\u0000NSEC\u0000${options.nsecTtl}\u0000${next}\u0000${types.join(',')}`;
    const signedNsec = signSet(nsecKey, owner, DNSSEC_TYPE_NUMBERS.NSEC, options.nsecTtl, () => [], () => nsecRdata(next, types));
    nsec.set(rel, signedNsec.data as Uint8Array);
    signatures.set(DNSSEC_TYPE_NUMBERS.NSEC, signedNsec.rrsig);
    rrsigs.set(rel, signatures);
  });

  return {
    keyTag: key.keyTag,
    rrsigs,
    nsec,
    nsecTtl: options.nsecTtl,
    chain: chain.map((c) => c.rel),
    chainKeys: chain.map((c) => c.key),
    renewAt: (expiration - RENEW_SECONDS) * 1000,
    cache: { dnskey: key.dnskey, entries, chain },
    made,
  };
}

const byKey = (a: ChainEntry, b: ChainEntry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The names in canonical order: the previous order kept, a few new names put in place, else sorted anew. */
function orderChain(zone: string, names: string[], previous: ChainEntry[] | undefined): ChainEntry[] {
  const entry = (rel: string) => ({ rel, key: canonicalKey(toAbsolute(rel, zone, true)) });
  const current = new Set(names);
  const kept = previous?.filter((e) => current.has(e.rel)) ?? [];
  const known = new Set(kept.map((e) => e.rel));
  const added = names.filter((rel) => !known.has(rel));
  if (!previous || added.length > INSERT_LIMIT) return names.map(entry).sort(byKey);
  for (const rel of added) {
    const e = entry(rel);
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (kept[mid].key < e.key) low = mid + 1;
      else high = mid;
    }
    kept.splice(low, 0, e);
  }
  return kept;
}

/** The owner of the NSEC that matches or covers `rel` (the greatest chain owner not after it; the apex is first). */
export function coveringNsec(signed: SignedZone, zone: string, rel: string): string {
  const target = canonicalKey(toAbsolute(rel, zone, true));
  let low = 0;
  let high = signed.chainKeys.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (signed.chainKeys[mid] <= target) low = mid;
    else high = mid - 1;
  }
  return signed.chain[low];
}
