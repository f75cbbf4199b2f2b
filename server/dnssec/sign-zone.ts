import { createHash, sign, type KeyObject } from 'node:crypto';
import {
  canonicalRdata,
  ED25519,
  concatBytes,
  DNSSEC_TYPE_NUMBERS,
  nsecRdata,
  rrsigHeader,
  rrsigLabelCount,
  type SignerApexType,
  signedData,
  typeNumber,
} from '#core/dns/dnssec.ts';
import { canonicalKey, parentName, toAbsolute } from '#core/dns/names.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { nsec3Chain, withEmptyNonTerminals, type Nsec3Chain, type Nsec3Name } from './nsec3.ts';

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
  /** 13: ECDSA P-256 with SHA-256, signatures as r‖s (RFC 6605); 15: Ed25519 over the data itself (RFC 8080). */
  algorithm: number;
  /** The DNSKEY data; the cache of signatures belongs to it. */
  dnskey: Uint8Array;
  privateKey: KeyObject;
}

/** A set as the signer reads it: presentation data, or wire data for DNSSEC's own apex records. */
export interface SignableSet {
  type: RecordType | SignerApexType;
  ttl: number;
  rdatas: string[];
  wire?: Uint8Array[];
}

/** The zone as it was last signed: its sets, and what signing them gave. A change re-signs only what differs from it. */
export interface PreviousSigning {
  nodes: Map<string, Map<string, SignableSet>>;
  signed: SignedZone;
}

export interface SignedZone {
  keyTag: number;
  /** The DNSKEY data the signatures were made with; none is reused under another key. */
  dnskey: Uint8Array;
  /** The signatures' expiration (seconds): from the signing epoch. None is reused from another epoch. */
  expiration: number;
  /** RRSIG data by relative owner name and covered type number. */
  rrsigs: Lookup<Map<number, Uint8Array>>;
  /** NSEC data by relative owner name. */
  nsec: Lookup<Uint8Array>;
  nsecTtl: number;
  /** Owners of the NSEC chain in canonical order, and their canonical keys (same order) for binary search. */
  chain: string[];
  chainKeys: string[];
  /** Delegations (names below the apex with NS): below them nothing is signed. */
  cuts: Set<string>;
  /** With NSEC3 (then `nsec` and `chain` are empty): the hashed chain that proves what does not exist. */
  nsec3?: Nsec3Chain;
  /** When (ms since 1970) the signatures have RENEW_SECONDS left: the renewal moves the zone's signing epoch then. */
  renewAt: number;
  /** Signatures made this time (the rest were reused). */
  made: number;
  /**
   * Signed as a change of the previous signing: the owners whose NSEC or RRSIGs may differ from it (IXFR sends only
   * theirs). Absent when the zone was signed whole.
   */
  touched?: string[];
  /**
   * During an algorithm rollover, the same sets signed with the new key (RFC 6781 §4.1.4: both keys sign every set
   * throughout). Its NSEC or NSEC3 chain is this one's (the same zone, the same denial), so answers take only its
   * RRSIGs, beside this zone's.
   */
  also?: SignedZone;
}

/** What a signed zone answers by name: read-only, so a change can share the unchanged entries with the zone before it. */
interface Lookup<V> {
  get(name: string): V | undefined;
  has(name: string): boolean;
}

/**
 * A lookup made of the previous one's base, shared and never written, and the entries changed since (null:
 * removed). A change copies only the changes; once they are many they are folded into a new base.
 */
class Layered<V> implements Lookup<V> {
  constructor(
    readonly base: Map<string, V>,
    readonly top: Map<string, V | null> = new Map(),
  ) {}
  get(name: string): V | undefined {
    const v = this.top.get(name);
    return v === null ? undefined : (v ?? this.base.get(name));
  }
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }
  /** A copy to change, sharing the base. */
  next(): Layered<V> {
    if (this.top.size < FOLD_AT) return new Layered(this.base, new Map(this.top));
    const base = new Map(this.base);
    for (const [k, v] of this.top) if (v === null) base.delete(k);
      else base.set(k, v);
    return new Layered(base);
  }
}

const FOLD_AT = 4096;

const layered = <V>(lookup: Lookup<V>): Layered<V> => (lookup instanceof Layered ? lookup.next() : new Layered(new Map(lookup as Map<string, V>)));

/** More names added or removed than this, and the chain is ordered again from scratch rather than spliced. */
const SPLICE_LIMIT = 1000;

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

function sameSet(a: SignableSet | undefined, b: SignableSet): boolean {
  if (!a || a.ttl !== b.ttl || a.rdatas.length !== b.rdatas.length) return false;
  for (let i = 0; i < a.rdatas.length; i += 1) if (a.rdatas[i] !== b.rdatas[i]) return false;
  if (!a.wire && !b.wire) return true;
  return !!a.wire && !!b.wire && a.wire.length === b.wire.length && a.wire.every((w, i) => sameBytes(w, (b.wire as Uint8Array[])[i]));
}

function sameNode(a: Map<string, SignableSet>, b: Map<string, SignableSet>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [type, set] of b) if (!sameSet(a.get(type), set)) return false;
  return true;
}

function lowerBound(keys: string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (keys[mid] < key) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Signs a zone as BIND's inline signing does (RFC 4035 §2): an RRSIG over every authoritative set (the apex's
 * SOA, NS and DNSKEY included; at a delegation only DS; nothing below one, where glue lives) and one NSEC per
 * authoritative name, chained in canonical order and back to the apex, listing the types there plus RRSIG and NSEC.
 *
 * Given the zone as last signed (same key, same epoch), a change costs what it changed: the names whose sets differ
 * are found by one comparison per name, their changed sets and NSEC records (and the NSEC before a name added or
 * removed) are signed, and the rest, chain order included, is taken as it was. A change that adds or removes a
 * delegation, or very many names, signs the whole zone again, still reusing every signature whose set is unchanged.
 */
export function signZone(
  zone: string,
  nodes: Map<string, Map<string, SignableSet>>,
  key: SigningKey,
  options: {
    epoch: Date;
    nsecTtl: number;
    previous?: PreviousSigning;
    store?: SignatureStore;
    /** The only names whose nodes may differ from `previous` (every other node is the same object): only these are compared. */
    changed?: Set<string>;
    /** How absence is proven: NSEC (the default) or NSEC3 (RFC 9276's parameters), optionally opted out. */
    denial?: Denial;
  },
): SignedZone {
  // Every signature is dated from the zone's epoch, not the clock: the same zone signs the same dates anywhere.
  const epoch = Math.floor(options.epoch.getTime() / 1000);
  const expiration = epoch + VALIDITY_SECONDS;
  const previous = reusable(options.previous, key, options);
  const signer = setSigner(zone, key, epoch, expiration, options.store);
  if (options.denial?.kind === 'nsec3') return signWithNsec3(zone, nodes, signer, options.nsecTtl, previous, options.denial.optOut);
  // A change is spliced into an NSEC chain only; a zone that was signed with NSEC3 is signed whole (its sets' signatures reused).
  return (previous && !previous.signed.nsec3 && signChange(zone, nodes, signer, options.nsecTtl, previous, options.changed)) || signWhole(zone, nodes, signer, options.nsecTtl, previous);
}

/** How a signed zone proves that a name or type does not exist. */
export type Denial = { kind: 'nsec' } | { kind: 'nsec3'; optOut: boolean };

/** A signed zone from its parts, as the signing worker hands them back (server/dnssec/sign-in-worker.ts). */
export function signedZoneOf(
  key: Pick<SigningKey, 'keyTag' | 'dnskey'>,
  options: { epoch: Date; nsecTtl: number },
  parts: { rrsigs: Map<string, Map<number, Uint8Array>>; nsec: Map<string, Uint8Array>; chain: string[]; chainKeys: string[]; cuts: Set<string>; made: number },
): SignedZone {
  const expiration = Math.floor(options.epoch.getTime() / 1000) + VALIDITY_SECONDS;
  return {
    keyTag: key.keyTag,
    dnskey: key.dnskey,
    expiration,
    renewAt: (expiration - RENEW_SECONDS) * 1000,
    nsecTtl: options.nsecTtl,
    ...parts,
    rrsigs: new Layered(parts.rrsigs),
    nsec: new Layered(parts.nsec),
  };
}

/** The previous signing when its signatures can be reused: the same key, epoch and NSEC TTL. */
export function reusable(previous: PreviousSigning | undefined, key: Pick<SigningKey, 'dnskey'>, options: { epoch: Date; nsecTtl: number }): PreviousSigning | undefined {
  const expiration = Math.floor(options.epoch.getTime() / 1000) + VALIDITY_SECONDS;
  return previous && sameBytes(previous.signed.dnskey, key.dnskey) && previous.signed.expiration === expiration && previous.signed.nsecTtl === options.nsecTtl ? previous : undefined;
}

/** A signature made in this signing, as kept in the database (dnssec_signatures). */
export interface FreshSignature {
  rel: string;
  type: number;
  /** SHA-256 of the DNSKEY and of the bytes the RRSIG signs: the set, key and validity it is good for. */
  digest: Buffer;
  rrsig: Uint8Array;
}

/**
 * Signatures kept with the zone: `known` answers one by digest (base64) instead of signing again; every signature
 * made is added to `fresh`, for the caller to store (first writer wins) and, if another was stored first, to swap.
 */
export interface SignatureStore {
  known?: Map<string, Uint8Array>;
  fresh: FreshSignature[];
}

type Signer = ReturnType<typeof setSigner>;

function setSigner(zone: string, key: SigningKey, epoch: number, expiration: number, store?: SignatureStore) {
  const signerName = `${zone}.`;
  const counter = { made: 0 };
  const signature = (data: Uint8Array) => (key.algorithm === ED25519 ? sign(null, data, key.privateKey) : sign('sha256', data, { key: key.privateKey, dsaEncoding: 'ieee-p1363' }));
  const signSet = (rel: string, owner: string, type: number, ttl: number, rdatas: Uint8Array[]): Uint8Array => {
    const header = rrsigHeader({
      typeCovered: type,
      algorithm: key.algorithm,
      labels: rrsigLabelCount(owner),
      originalTtl: ttl,
      expiration,
      inception: epoch - INCEPTION_SKEW_SECONDS,
      keyTag: key.keyTag,
      signer: signerName,
    });
    const data = signedData(header, owner, type, ttl, rdatas);
    if (!store) {
      counter.made += 1;
      return concatBytes([header, signature(data)]);
    }
    const digest = createHash('sha256').update(key.dnskey).update(data).digest();
    const kept = store.known?.get(digest.toString('base64'));
    if (kept) return kept;
    counter.made += 1;
    const rrsig = concatBytes([header, signature(data)]);
    store.fresh.push({ rel, type, digest, rrsig });
    return rrsig;
  };
  const result = (parts: Omit<SignedZone, 'keyTag' | 'dnskey' | 'expiration' | 'renewAt' | 'made'>): SignedZone => ({
    keyTag: key.keyTag,
    dnskey: key.dnskey,
    expiration,
    renewAt: (expiration - RENEW_SECONDS) * 1000,
    made: counter.made,
    ...parts,
  });
  return { zone, signSet, result };
}

const wireOf = (set: SignableSet) => set.wire ?? set.rdatas.map((r) => canonicalRdata(set.type as RecordType, r));

/** A name's set signatures: each unchanged set's taken from before, the others made (at a delegation only DS). */
function nameSignatures(signer: Signer, rel: string, node: Map<string, SignableSet>, cut: boolean, previous: PreviousSigning | undefined): Map<number, Uint8Array> {
  const owner = toAbsolute(rel, signer.zone, true);
  const before = previous?.nodes.get(rel);
  const kept = previous?.signed.rrsigs.get(rel);
  const signatures = new Map<number, Uint8Array>();
  for (const set of node.values()) {
    if (cut && set.type !== 'DS') continue;
    const type = typeNumber(set.type);
    const old = kept?.get(type);
    signatures.set(type, old && sameSet(before?.get(set.type), set) ? old : signer.signSet(rel, owner, type, set.ttl, wireOf(set)));
  }
  return signatures;
}

/** The name's NSEC (to `next`), its signature put in `signatures`; the previous ones kept when the NSEC did not change. */
function putNsec(signer: Signer, nsecTtl: number, rel: string, node: Map<string, SignableSet>, next: string, signatures: Map<number, Uint8Array>, previous: PreviousSigning | undefined, cut: boolean): Uint8Array {
  const types: number[] = [DNSSEC_TYPE_NUMBERS.RRSIG, DNSSEC_TYPE_NUMBERS.NSEC];
  // At a delegation only NS and DS are the zone's (RFC 4035 §2.3): other data there is the child's, not listed.
  for (const set of node.values()) if (!cut || set.type === 'NS' || set.type === 'DS') types.push(typeNumber(set.type));
  types.sort((a, b) => a - b);
  const data = nsecRdata(toAbsolute(next, signer.zone, true), types);
  const old = previous?.signed.nsec.get(rel);
  const oldSignature = previous?.signed.rrsigs.get(rel)?.get(DNSSEC_TYPE_NUMBERS.NSEC);
  const reuse = old && oldSignature && sameBytes(old, data);
  signatures.set(DNSSEC_TYPE_NUMBERS.NSEC, reuse ? oldSignature : signer.signSet(rel, toAbsolute(rel, signer.zone, true), DNSSEC_TYPE_NUMBERS.NSEC, nsecTtl, [data]));
  return reuse ? old : data;
}

function delegationsOf(nodes: Map<string, Map<string, SignableSet>>): Set<string> {
  const cuts = new Set<string>();
  for (const [rel, node] of nodes) if (rel !== '@' && node.has('NS')) cuts.add(rel);
  return cuts;
}

const occludedBy = (cuts: Set<string>) => (rel: string) => {
  if (cuts.size === 0) return false;
  for (let above = parentName(rel); above !== null; above = parentName(above)) if (cuts.has(above)) return true;
  return false;
};

/** The whole zone, in canonical order; a set or NSEC that is as it was keeps its signature. */
function signWhole(zone: string, nodes: Map<string, Map<string, SignableSet>>, signer: Signer, nsecTtl: number, previous: PreviousSigning | undefined): SignedZone {
  const cuts = delegationsOf(nodes);
  const occluded = occludedBy(cuts);
  const chain = [...nodes.keys()].filter((rel) => !occluded(rel)).map((rel) => ({ rel, key: canonicalKey(toAbsolute(rel, zone, true)) }));
  chain.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const rrsigs = new Map<string, Map<number, Uint8Array>>();
  const nsec = new Map<string, Uint8Array>();
  chain.forEach(({ rel }, i) => {
    const node = nodes.get(rel) as Map<string, SignableSet>;
    const signatures = nameSignatures(signer, rel, node, cuts.has(rel), previous);
    nsec.set(rel, putNsec(signer, nsecTtl, rel, node, chain[(i + 1) % chain.length].rel, signatures, previous, cuts.has(rel)));
    rrsigs.set(rel, signatures);
  });
  return signer.result({ rrsigs: new Layered(rrsigs), nsec: new Layered(nsec), nsecTtl, chain: chain.map((c) => c.rel), chainKeys: chain.map((c) => c.key), cuts });
}

/** The names whose nodes differ between the two versions (added, removed or changed), by one comparison per name. */
function differingNames(nodes: Map<string, Map<string, SignableSet>>, was: Map<string, Map<string, SignableSet>>): string[] {
  const changed: string[] = [];
  let common = 0;
  for (const [rel, node] of nodes) {
    const old = was.get(rel);
    if (old) common += 1;
    if (!old || !sameNode(old, node)) changed.push(rel);
  }
  if (common !== was.size) for (const rel of was.keys()) if (!nodes.has(rel)) changed.push(rel);
  return changed;
}

/** The same, when only the names of `hint` can differ: a change of a big zone compares its few names, not all of them. */
function changedAmong(hint: Set<string>, nodes: Map<string, Map<string, SignableSet>>, was: Map<string, Map<string, SignableSet>>): string[] {
  const changed: string[] = [];
  for (const rel of hint) {
    const [node, old] = [nodes.get(rel), was.get(rel)];
    if (node && old ? !sameNode(old, node) : node !== old) changed.push(rel);
  }
  return changed;
}

/**
 * A change from the zone as last signed: only the names whose sets differ, and the NSEC before a name added to or
 * removed from the chain. Null when the change adds or removes a delegation or very many names: sign the whole zone.
 */
function signChange(zone: string, nodes: Map<string, Map<string, SignableSet>>, signer: Signer, nsecTtl: number, previous: PreviousSigning, hint?: Set<string>): SignedZone | null {
  const before = previous.signed;
  const changed = hint ? changedAmong(hint, nodes, previous.nodes) : differingNames(nodes, previous.nodes);
  if (changed.length > SPLICE_LIMIT) return null;
  for (const rel of changed) if (rel !== '@' && before.cuts.has(rel) !== !!nodes.get(rel)?.has('NS')) return null;
  const occluded = occludedBy(before.cuts);

  const rrsigs = layered(before.rrsigs);
  const nsec = layered(before.nsec);
  let chain = before.chain;
  let chainKeys = before.chainKeys;
  const keyOf = (rel: string) => canonicalKey(toAbsolute(rel, zone, true));
  const inserted: string[] = [];
  const removed: string[] = [];
  for (const rel of changed) {
    const was = before.nsec.has(rel);
    const is = nodes.has(rel) && !occluded(rel);
    if (was === is) continue;
    if (chain === before.chain) [chain, chainKeys] = [[...chain], [...chainKeys]];
    const key = keyOf(rel);
    const at = lowerBound(chainKeys, key);
    if (is) {
      chain.splice(at, 0, rel);
      chainKeys.splice(at, 0, key);
      inserted.push(rel);
    } else {
      chain.splice(at, 1);
      chainKeys.splice(at, 1);
      rrsigs.top.set(rel, null);
      nsec.top.set(rel, null);
      removed.push(rel);
    }
  }
  // NSEC records to write: every changed name in the chain (its types may differ), and the one before each name
  // added or removed (its next name moved).
  const changedNames = new Set(changed);
  const dirty = new Set(changed.filter((rel) => nodes.has(rel) && !occluded(rel)));
  const predecessor = (at: number) => chain[(at - 1 + chain.length) % chain.length];
  for (const rel of inserted) dirty.add(predecessor(lowerBound(chainKeys, keyOf(rel))));
  for (const rel of removed) dirty.add(predecessor(lowerBound(chainKeys, keyOf(rel))));
  for (const rel of dirty) {
    const node = nodes.get(rel) as Map<string, SignableSet>;
    const at = lowerBound(chainKeys, keyOf(rel));
    const signatures = changedNames.has(rel) ? nameSignatures(signer, rel, node, before.cuts.has(rel), previous) : new Map(before.rrsigs.get(rel));
    nsec.top.set(rel, putNsec(signer, nsecTtl, rel, node, chain[(at + 1) % chain.length], signatures, previous, before.cuts.has(rel)));
    rrsigs.top.set(rel, signatures);
  }
  return { ...signer.result({ rrsigs, nsec, nsecTtl, chain, chainKeys, cuts: before.cuts }), touched: [...new Set([...changed, ...dirty])] };
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

/**
 * The whole zone with NSEC3 (RFC 5155 §7.1): the sets signed as with NSEC, then one NSEC3 per authoritative name and
 * per empty non-terminal, listing the types there (RRSIG where the name has signatures). Opted out, a delegation
 * without DS has none: a validator takes any unsigned delegation in the span the opt-out NSEC3 covers as insecure.
 */
function signWithNsec3(zone: string, nodes: Map<string, Map<string, SignableSet>>, signer: Signer, ttl: number, previous: PreviousSigning | undefined, optOut: boolean): SignedZone {
  const cuts = delegationsOf(nodes);
  const occluded = occludedBy(cuts);
  const rrsigs = new Map<string, Map<number, Uint8Array>>();
  const names: Nsec3Name[] = [];
  const authoritative: string[] = [];
  for (const [rel, node] of nodes) {
    if (occluded(rel)) continue;
    authoritative.push(rel);
    const cut = cuts.has(rel);
    const signatures = nameSignatures(signer, rel, node, cut, previous);
    if (signatures.size > 0) rrsigs.set(rel, signatures);
    if (optOut && cut && !node.has('DS')) continue;
    const types = [...node.values()].filter((set) => !cut || set.type === 'NS' || set.type === 'DS').map((set) => typeNumber(set.type));
    if (signatures.size > 0) types.push(DNSSEC_TYPE_NUMBERS.RRSIG);
    names.push({ rel, types: types.sort((a, b) => a - b) });
  }
  const before = previous?.signed.nsec3;
  const chain = nsec3Chain(zone, withEmptyNonTerminals(names, authoritative, (rel) => nodes.has(rel)), optOut, (label, data) => {
    const old = before?.records.get(label);
    const oldSignature = previous?.signed.rrsigs.get(label)?.get(DNSSEC_TYPE_NUMBERS.NSEC3);
    const signature = old && oldSignature && sameBytes(old, data) ? oldSignature : signer.signSet(label, toAbsolute(label, zone, true), DNSSEC_TYPE_NUMBERS.NSEC3, ttl, [data]);
    const at = rrsigs.get(label) ?? new Map<number, Uint8Array>();
    at.set(DNSSEC_TYPE_NUMBERS.NSEC3, signature);
    rrsigs.set(label, at);
  });
  return signer.result({ rrsigs: new Layered(rrsigs), nsec: new Layered(new Map()), nsecTtl: ttl, chain: [], chainKeys: [], cuts, nsec3: chain });
}
