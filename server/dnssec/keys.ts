import { createHash, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { ALGORITHM, algorithmOf, dsDigestInput, ED25519, fromBase64, toBase64, type DnssecAlgorithm } from '#core/dns/dnssec.ts';
import { zoneKeyView, type ZoneKeyView } from '#core/dns/dnssec-records.ts';
import type { Queryable } from '../db/database.ts';
import type { SigningKey } from './sign-zone.ts';

/**
 * A zone's key as stored: the public key as DNSKEY carries it (P-256: X‖Y, 64 bytes; Ed25519: 32 bytes) and the
 * private key as PKCS#8 DER, both base64.
 */
export interface StoredZoneKey {
  public_key: string;
  private_key: string;
}

/** The public half as the zone publishes it (DNSKEY, key tag, DS digest). */
export function publicView(zone: string, publicKeyBase64: string): ZoneKeyView {
  return zoneKeyView(fromBase64(publicKeyBase64), (dnskey) => Uint8Array.from(createHash('sha256').update(dsDigestInput(zone, dnskey)).digest()));
}

/** The key the signer uses. The private key becomes a KeyObject, which prints no key material if ever logged. */
export function signingKey(zone: string, stored: StoredZoneKey): SigningKey {
  const view = publicView(zone, stored.public_key);
  return { keyTag: view.keyTag, algorithm: view.algorithm as DnssecAlgorithm, dnskey: view.dnskey, privateKey: createPrivateKey({ key: Buffer.from(stored.private_key, 'base64'), format: 'der', type: 'pkcs8' }) };
}

/**
 * A new key: ECDSA P-256 (algorithm 13), the public point without its 0x04 prefix as DNSKEY carries it (RFC 6605),
 * or Ed25519 (15), its 32-byte public key (RFC 8080).
 */
export function generateZoneKey(algorithm: DnssecAlgorithm = ALGORITHM): StoredZoneKey {
  const { publicKey, privateKey } = algorithm === ED25519 ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = algorithm === ED25519 ? Buffer.from(jwk.x as string, 'base64url') : Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
  return { public_key: toBase64(point), private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
}

/** How a zone is signed: its algorithm and how absence is proven. */
export interface SigningChoice {
  algorithm: DnssecAlgorithm;
  denial: 'nsec' | 'nsec3';
  nsec3OptOut: boolean;
}

export const DEFAULT_SIGNING: SigningChoice = { algorithm: ALGORITHM, denial: 'nsec', nsec3OptOut: false };

/** Creates the zone's key, of the chosen algorithm, unless it has one; inside the caller's transaction. Answers whether it made one. */
export async function ensureZoneKey(q: Queryable, zone: string, choice: SigningChoice = DEFAULT_SIGNING): Promise<boolean> {
  const key = generateZoneKey(choice.algorithm);
  const rows = await q.query(
    `INSERT INTO dnssec_keys (zone_name, algorithm, public_key, private_key, denial, nsec3_opt_out) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (zone_name) DO NOTHING RETURNING zone_name`,
    [zone, choice.algorithm, key.public_key, key.private_key, choice.denial, choice.nsec3OptOut],
  );
  return rows.length > 0;
}

/** Changes how a signed zone proves absence (the key stays): the next load builds the other chain. */
export async function setDenial(q: Queryable, zone: string, choice: Pick<SigningChoice, 'denial' | 'nsec3OptOut'>): Promise<void> {
  await q.query('UPDATE dnssec_keys SET denial = $2, nsec3_opt_out = $3 WHERE zone_name = $1', [zone, choice.denial, choice.nsec3OptOut]);
}

/** The zone's public key and choices, or null when it is not signed. Never reads the private key. */
export async function readSigning(q: Queryable, zone: string): Promise<(SigningChoice & { publicKey: string }) | null> {
  const [row] = await q.query<{ public_key: string; denial: 'nsec' | 'nsec3'; nsec3_opt_out: boolean }>('SELECT public_key, denial, nsec3_opt_out FROM dnssec_keys WHERE zone_name = $1', [zone]);
  if (!row) return null;
  return { publicKey: row.public_key, algorithm: algorithmOf(fromBase64(row.public_key)), denial: row.denial, nsec3OptOut: row.nsec3_opt_out };
}

/** Removes the zone's key, and with it every signature served for it. Answers whether there was one. */
export async function removeZoneKey(q: Queryable, zone: string): Promise<boolean> {
  await q.query('DELETE FROM dnssec_signatures WHERE zone_name = $1', [zone]);
  return (await q.query('DELETE FROM dnssec_keys WHERE zone_name = $1 RETURNING zone_name', [zone])).length > 0;
}
