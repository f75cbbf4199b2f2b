import { createHash, createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { dsDigestInput, fromBase64, toBase64 } from '#core/dns/dnssec.ts';
import { zoneKeyView, type ZoneKeyView } from '#core/dns/dnssec-records.ts';
import type { Queryable } from '../db/database.ts';
import type { SigningKey } from './sign-zone.ts';

/** A zone's key as stored: the public key as X‖Y (64 bytes) and the private key as PKCS#8 DER, both base64. */
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
  return { keyTag: view.keyTag, dnskey: view.dnskey, privateKey: createPrivateKey({ key: Buffer.from(stored.private_key, 'base64'), format: 'der', type: 'pkcs8' }) };
}

/** A new ECDSA P-256 key (algorithm 13): the public point without its 0x04 prefix, as DNSKEY carries it (RFC 6605). */
function generateZoneKey(): StoredZoneKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from(jwk.x as string, 'base64url'), Buffer.from(jwk.y as string, 'base64url')]);
  return { public_key: toBase64(point), private_key: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') };
}

/** Creates the zone's key unless it has one; inside the caller's transaction. Answers whether it made one. */
export async function ensureZoneKey(q: Queryable, zone: string): Promise<boolean> {
  const key = generateZoneKey();
  const rows = await q.query('INSERT INTO dnssec_keys (zone_name, public_key, private_key) VALUES ($1, $2, $3) ON CONFLICT (zone_name) DO NOTHING RETURNING zone_name', [
    zone,
    key.public_key,
    key.private_key,
  ]);
  return rows.length > 0;
}

/** Removes the zone's key, and with it every signature served for it. Answers whether there was one. */
export async function removeZoneKey(q: Queryable, zone: string): Promise<boolean> {
  await q.query('DELETE FROM dnssec_signatures WHERE zone_name = $1', [zone]);
  return (await q.query('DELETE FROM dnssec_keys WHERE zone_name = $1 RETURNING zone_name', [zone])).length > 0;
}

/** The zone's public key (base64 X‖Y), or null when the zone is not signed. Never reads the private key. */
export async function readPublicKey(q: Queryable, zone: string): Promise<string | null> {
  const [row] = await q.query<{ public_key: string }>('SELECT public_key FROM dnssec_keys WHERE zone_name = $1', [zone]);
  return row?.public_key ?? null;
}
