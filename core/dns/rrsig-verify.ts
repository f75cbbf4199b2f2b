/**
 * Checks one RRSIG over one record set against a zone's DNSKEYs with WebCrypto (ECDSA P-256 with SHA-256,
 * algorithm 13), as a validating resolver does (RFC 4035 §5.3): the signer, the dates, the key tag, the owner (a
 * wildcard's when the signature has fewer labels), then the signature over the canonical form of the set.
 */
import { ALGORITHM, ED25519, keyTag, nameLabels, parseRrsig, rrsigHeader, signedData } from './dnssec.ts';
import { sameName } from './names.ts';

export type RrsigVerdict = { ok: true; keyTag: number; expires: Date } | { ok: false; reason: string };

export interface RrsigInput {
  zone: string;
  /** The owner the set was answered at (the query's name for a wildcard answer). */
  owner: string;
  type: number;
  /** The set's data in canonical form (canonicalRdata). */
  rdatas: Uint8Array[];
  rrsig: Uint8Array;
  /** The zone's DNSKEY data. */
  dnskeys: Uint8Array[];
  now: Date;
  subtle?: SubtleCrypto;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export async function verifyRrsig(input: RrsigInput): Promise<RrsigVerdict> {
  const subtle = input.subtle ?? globalThis.crypto.subtle;
  let rrsig: ReturnType<typeof parseRrsig>;
  try {
    rrsig = parseRrsig(input.rrsig);
  } catch {
    return { ok: false, reason: 'the signature record cannot be read' };
  }
  if (rrsig.typeCovered !== input.type) return { ok: false, reason: `the signature covers type ${rrsig.typeCovered}, not ${input.type}` };
  if (!sameName(rrsig.signer, input.zone)) return { ok: false, reason: `signed by ${rrsig.signer}, not by the zone ${input.zone}` };
  if (rrsig.algorithm !== ALGORITHM && rrsig.algorithm !== ED25519) return { ok: false, reason: `signed with algorithm ${rrsig.algorithm}; this check knows ECDSA P-256 (13) and Ed25519 (15) only` };
  const now = Math.floor(input.now.getTime() / 1000);
  if (now > rrsig.expiration) return { ok: false, reason: `the signature expired at ${iso(rrsig.expiration)}` };
  if (now < rrsig.inception) return { ok: false, reason: `the signature is valid only from ${iso(rrsig.inception)}` };
  const dnskey = input.dnskeys.find((k) => keyTag(k) === rrsig.keyTag && k[3] === rrsig.algorithm);
  if (!dnskey) return { ok: false, reason: `the zone publishes no DNSKEY with the key tag ${rrsig.keyTag}` };

  const labels = nameLabels(input.owner);
  if (rrsig.labels > labels.length) return { ok: false, reason: 'the signature names more labels than the owner has' };
  // Fewer labels: a wildcard answered; the set was signed at the wildcard (RFC 4035 §5.3.2).
  const signedOwner = rrsig.labels < labels.length ? `*.${labels.slice(labels.length - rrsig.labels).join('.')}.` : input.owner;
  const header = rrsigHeader(rrsig);
  const data = signedData(header, signedOwner, input.type, rrsig.originalTtl, input.rdatas);
  if (rrsig.algorithm === ED25519) return verifyEd25519(subtle, dnskey, rrsig, data);
  const point = new Uint8Array(65);
  point[0] = 4;
  point.set(dnskey.subarray(4), 1);
  if (dnskey.length !== 4 + 64) return { ok: false, reason: `the DNSKEY with the key tag ${rrsig.keyTag} is not a P-256 public key` };
  const key = await subtle.importKey('raw', point, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']).catch(() => null);
  if (!key) return { ok: false, reason: `the DNSKEY with the key tag ${rrsig.keyTag} is not a point on P-256` };
  const valid = await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, new Uint8Array(rrsig.signature), new Uint8Array(data));
  return valid ? { ok: true, keyTag: rrsig.keyTag, expires: new Date(rrsig.expiration * 1000) } : { ok: false, reason: "the signature does not match the records with the zone's key" };
}

/** Ed25519 (RFC 8080): the DNSKEY holds the 32-byte public key; the signature is over the data itself. */
async function verifyEd25519(subtle: SubtleCrypto, dnskey: Uint8Array, rrsig: ReturnType<typeof parseRrsig>, data: Uint8Array): Promise<RrsigVerdict> {
  if (dnskey.length !== 4 + 32) return { ok: false, reason: `the DNSKEY with the key tag ${rrsig.keyTag} is not an Ed25519 public key` };
  const key = await subtle.importKey('raw', new Uint8Array(dnskey.subarray(4)), { name: 'Ed25519' }, false, ['verify']).catch(() => null);
  if (!key) return { ok: false, reason: 'this browser cannot check Ed25519 signatures' };
  const valid = await subtle.verify({ name: 'Ed25519' }, key, new Uint8Array(rrsig.signature), new Uint8Array(data));
  return valid ? { ok: true, keyTag: rrsig.keyTag, expires: new Date(rrsig.expiration * 1000) } : { ok: false, reason: "the signature does not match the records with the zone's key" };
}
