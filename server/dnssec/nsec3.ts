import { createHash } from 'node:crypto';
import { base32hex } from '@scure/base';
import { nameToWire, nsec3Rdata } from '#core/dns/dnssec.ts';
import { parentName, toAbsolute } from '#core/dns/names.ts';

/**
 * NSEC3 (RFC 5155) with RFC 9276's parameters: SHA-1, no extra iterations, no salt. A name's hashed owner is
 * base32hex(SHA-1(name in canonical wire form)) as one label below the apex; the chain links the hashed owners in
 * the order of their hashes, so it names no owner and cannot be walked.
 */
export interface Nsec3Chain {
  optOut: boolean;
  /** Hashed owner labels (base32hex, lowercase: the same order as the hashes' bytes), ascending. */
  hashes: string[];
  /** NSEC3 data by hashed owner label. Its RRSIG is in the zone's `rrsigs` under the same label (type NSEC3). */
  records: Map<string, Uint8Array>;
}

/** The hashed owner label of `rel` (a name relative to the apex, '@' the apex itself). */
export function nsec3Label(zone: string, rel: string): string {
  const digest = createHash('sha1').update(nameToWire(toAbsolute(rel, zone, true))).digest();
  return base32hex.encode(digest).toLowerCase();
}

const hashBytes = (label: string) => base32hex.decode(label.toUpperCase());

/** A name the chain holds: its relative name and the types its NSEC3 lists (none for an empty non-terminal). */
export interface Nsec3Name {
  rel: string;
  types: number[];
}

/**
 * The names the chain holds besides `names`: every empty non-terminal above one of them (RFC 5155 §7.1), so a
 * name that exists always has an NSEC3 that matches it (but an opted-out delegation).
 */
export function withEmptyNonTerminals(names: Nsec3Name[], all: Iterable<string>, exists: (rel: string) => boolean): Nsec3Name[] {
  const seen = new Set(names.map((n) => n.rel));
  const out = [...names];
  for (const rel of all) {
    for (let above = parentName(rel); above !== null; above = parentName(above)) {
      if (seen.has(above) || exists(above)) break;
      seen.add(above);
      out.push({ rel: above, types: [] });
    }
  }
  return out;
}

/**
 * Builds the chain over `names` (each hashed once), each NSEC3 pointing to the next hash and the last back to
 * the first. `sign` gives each record's RRSIG (it may reuse the previous one when the data is the same).
 */
export function nsec3Chain(zone: string, names: Nsec3Name[], optOut: boolean, sign: (label: string, data: Uint8Array) => void): Nsec3Chain {
  const hashed = names.map((n) => ({ label: nsec3Label(zone, n.rel), types: n.types }));
  hashed.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const records = new Map<string, Uint8Array>();
  hashed.forEach(({ label, types }, i) => {
    const data = nsec3Rdata(optOut, hashBytes(hashed[(i + 1) % hashed.length].label), types);
    records.set(label, data);
    sign(label, data);
  });
  return { optOut, hashes: hashed.map((h) => h.label), records };
}

/** The hashed owner whose NSEC3 covers `label` (the greatest hash below it, or the last one: the chain wraps). */
export function coveringLabel(chain: Nsec3Chain, label: string): string {
  let low = 0;
  let high = chain.hashes.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (chain.hashes[mid] < label) low = mid + 1;
    else high = mid;
  }
  return chain.hashes[(low - 1 + chain.hashes.length) % chain.hashes.length];
}
