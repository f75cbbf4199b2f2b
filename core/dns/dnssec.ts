/**
 * DNSSEC wire forms both sides share (RFC 4034): canonical names and ordering, DNSKEY/DS/NSEC/RRSIG data, the key
 * tag, and the bytes an RRSIG signs. The service signs these bytes (node:crypto); the dashboard verifies them
 * (WebCrypto, rrsig-verify.ts). Pure TypeScript on Uint8Array, so it runs in the browser too.
 */
import type { RecordType } from '../wire/dns.ts';
import { plainName } from './names.ts';
import { rdataToWire, TYPE_NUMBERS } from './wire-rdata.ts';

/** ECDSA Curve P-256 with SHA-256 (RFC 6605): the algorithm a zone is signed with unless its owner chose Ed25519. */
export const ALGORITHM = 13;
/** Ed25519 (RFC 8080): smaller keys and signatures, the owner's other choice. */
export const ED25519 = 15;
export type DnssecAlgorithm = typeof ALGORITHM | typeof ED25519;
/** A key's algorithm follows from its public key's size: 32 bytes for Ed25519, 64 (X‖Y) for P-256. */
export const algorithmOf = (publicKey: Uint8Array): DnssecAlgorithm => (publicKey.length === 32 ? ED25519 : ALGORITHM);
/** Zone key + secure entry point: one combined signing key (a "CSK"). */
export const KSK_FLAGS = 257;
/** SHA-256 (RFC 4509). */
export const DIGEST_TYPE = 2;
export const DNSSEC_TYPE_NUMBERS = { DS: 43, RRSIG: 46, NSEC: 47, DNSKEY: 48, NSEC3: 50, NSEC3PARAM: 51, CDS: 59, CDNSKEY: 60 } as const;
export type DnssecRecordType = 'DNSKEY' | 'CDS' | 'CDNSKEY';
/** The apex sets the signer adds and signs: the key records, and NSEC3PARAM with NSEC3. */
export type SignerApexType = DnssecRecordType | 'NSEC3PARAM';
/** The TTL of the records DNSSEC adds at the apex. */
export const DNSKEY_TTL = 3600;

const encoder = new TextEncoder();

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const u16 = (n: number) => Uint8Array.of((n >> 8) & 0xff, n & 0xff);
const u32 = (n: number) => Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);

export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
export const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Labels of an absolute name without the root: 'A.b.' → ['a', 'b'] (lowercased, the canonical form). */
export function nameLabels(name: string): string[] {
  const plain = plainName(name);
  return plain === '' ? [] : plain.split('.');
}

/** An absolute name in canonical wire form: lowercase, uncompressed (RFC 4034 §6.2). */
export function nameToWire(name: string): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const label of nameLabels(name)) {
    const bytes = encoder.encode(label);
    parts.push(Uint8Array.of(bytes.length), bytes);
  }
  parts.push(Uint8Array.of(0));
  return concatBytes(parts);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** The RRSIG labels field: the owner's labels, a leading wildcard label not counted (RFC 4034 §3.1.3). */
export function rrsigLabelCount(owner: string): number {
  const labels = nameLabels(owner);
  return labels[0] === '*' ? labels.length - 1 : labels.length;
}

/**
 * Record data in canonical form (RFC 4034 §6.2, RFC 6840 §5.1): the domain names inside NS, CNAME, PTR, MX, SRV,
 * SOA and NAPTR data lowercased; every other type as it is.
 */
export function canonicalRdata(type: RecordType, rdata: string): Uint8Array {
  switch (type) {
    case 'NS':
    case 'CNAME':
    case 'PTR':
    case 'MX':
    case 'SRV':
    case 'SOA':
      return rdataToWire(type, rdata.toLowerCase());
    case 'NAPTR': {
      // Only the replacement (the last field) is a name; the regular expression keeps its case.
      const at = rdata.trimEnd().lastIndexOf(' ');
      return rdataToWire(type, `${rdata.slice(0, at + 1)}${rdata.slice(at + 1).toLowerCase()}`);
    }
    default:
      return rdataToWire(type, rdata);
  }
}

/** DNSKEY data: flags, protocol 3, the algorithm, the public key (P-256: X‖Y, RFC 6605 §4; Ed25519: 32 bytes, RFC 8080 §3). */
export function dnskeyRdata(publicKey: Uint8Array, flags = KSK_FLAGS): Uint8Array {
  return concatBytes([u16(flags), Uint8Array.of(3, algorithmOf(publicKey)), publicKey]);
}

/** The key tag of a DNSKEY's data (RFC 4034 Appendix B). */
export function keyTag(dnskey: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < dnskey.length; i += 1) sum += i & 1 ? dnskey[i] : dnskey[i] << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** What the DS digest is taken over: the owner name and the DNSKEY data (RFC 4034 §5.1.4). */
export const dsDigestInput = (zone: string, dnskey: Uint8Array) => concatBytes([nameToWire(zone), dnskey]);

/** DS (and CDS) data: key tag, algorithm, digest type 2, the SHA-256 digest. */
export const dsRdata = (tag: number, algorithm: number, digest: Uint8Array) => concatBytes([u16(tag), Uint8Array.of(algorithm, DIGEST_TYPE), digest]);

/** The NSEC type bit maps (RFC 4034 §4.1.2): per window of 256 types, as many bytes as its highest type needs. */
function typeBitmap(types: number[]): Uint8Array {
  const windows = new Map<number, number[]>();
  for (const type of new Set(types)) {
    const window = type >> 8;
    const bits = windows.get(window) ?? [];
    bits.push(type & 0xff);
    windows.set(window, bits);
  }
  const parts: Uint8Array[] = [];
  for (const window of [...windows.keys()].sort((a, b) => a - b)) {
    const bits = windows.get(window) as number[];
    const map = new Uint8Array((Math.max(...bits) >> 3) + 1);
    for (const bit of bits) map[bit >> 3] |= 0x80 >> (bit & 7);
    parts.push(Uint8Array.of(window, map.length), map);
  }
  return concatBytes(parts);
}

/** NSEC data: the next owner name in the chain and the types at this owner. */
export const nsecRdata = (next: string, types: number[]) => concatBytes([nameToWire(next), typeBitmap(types)]);

/** NSEC3's hash algorithm (SHA-1, the only one defined) and its opt-out flag (RFC 5155 §3.1). */
const NSEC3_SHA1 = 1;
const NSEC3_OPT_OUT = 1;

/**
 * NSEC3PARAM data as RFC 9276 §3.1 asks: SHA-1, flags 0, no extra iterations, no salt. Every NSEC3 of the zone
 * carries the same parameters (with the opt-out flag when opted out).
 */
export const nsec3ParamRdata = () => Uint8Array.of(NSEC3_SHA1, 0, 0, 0, 0);

/** NSEC3 data (RFC 5155 §3.2): the parameters, the next hashed owner (raw hash bytes), the types at this name. */
export const nsec3Rdata = (optOut: boolean, nextHash: Uint8Array, types: number[]) =>
  concatBytes([Uint8Array.of(NSEC3_SHA1, optOut ? NSEC3_OPT_OUT : 0, 0, 0, 0, nextHash.length), nextHash, typeBitmap(types)]);

export interface RrsigFields {
  typeCovered: number;
  algorithm: number;
  labels: number;
  originalTtl: number;
  /** Seconds since the epoch (serial number arithmetic is not needed before 2106). */
  expiration: number;
  inception: number;
  keyTag: number;
  signer: string;
}

/** RRSIG data up to, without, the signature. */
export function rrsigHeader(f: RrsigFields): Uint8Array {
  return concatBytes([u16(f.typeCovered), Uint8Array.of(f.algorithm, f.labels), u32(f.originalTtl), u32(f.expiration), u32(f.inception), u16(f.keyTag), nameToWire(f.signer)]);
}

/** The fields and the signature of RRSIG data. */
export function parseRrsig(rdata: Uint8Array): RrsigFields & { signature: Uint8Array } {
  const view = new DataView(rdata.buffer, rdata.byteOffset, rdata.byteLength);
  const labels: string[] = [];
  let at = 18;
  for (let length = rdata[at]; length > 0; length = rdata[at]) {
    labels.push(new TextDecoder().decode(rdata.subarray(at + 1, at + 1 + length)));
    at += 1 + length;
  }
  return {
    typeCovered: view.getUint16(0),
    algorithm: rdata[2],
    labels: rdata[3],
    originalTtl: view.getUint32(4),
    expiration: view.getUint32(8),
    inception: view.getUint32(12),
    keyTag: view.getUint16(16),
    signer: `${labels.join('.')}.`,
    signature: rdata.slice(at + 1),
  };
}

/**
 * The bytes an RRSIG signs (RFC 4034 §3.1.8.1): its own data without the signature, then each record of the set
 * in canonical form — owner lowercase, the original TTL, records ordered by their data, duplicates once.
 * `owner` is the name the set was signed at (for a wildcard answer, the wildcard: RFC 4035 §5.3.2).
 */
export function signedData(header: Uint8Array, owner: string, type: number, originalTtl: number, rdatas: Uint8Array[]): Uint8Array {
  const sorted = [...rdatas].sort(compareBytes).filter((r, i, all) => i === 0 || compareBytes(r, all[i - 1]) !== 0);
  const prefix = concatBytes([nameToWire(owner), u16(type), u16(1), u32(originalTtl)]);
  return concatBytes([header, ...sorted.flatMap((r) => [prefix, u16(r.length), r])]);
}

export const typeNumber = (type: RecordType | SignerApexType) => (type in DNSSEC_TYPE_NUMBERS ? DNSSEC_TYPE_NUMBERS[type as SignerApexType] : TYPE_NUMBERS[type as RecordType]);
