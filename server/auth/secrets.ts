import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Credentials are stored only as this hash, so a copy of the database grants nothing. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** `bytes` random bytes as base64url (32 bytes → 43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * A secret the service must read back (a TSIG key's, which HMAC needs as it is), as stored: sealed with AES-256-GCM
 * under a key derived from SECRETS_KEY when the service has one (`v1:<iv>:<tag>:<ciphertext>`), else as it is
 * (`plain:<base64>`) like the DNSSEC private keys, so a copy of the database alone reveals it only then.
 */
export function sealSecret(secret: Buffer, secretsKey: string | undefined): string {
  if (!secretsKey) return `plain:${secret.toString('base64')}`;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secretsKey), iv);
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
}

/** The secret `sealSecret` stored; null when it cannot be opened (sealed under another SECRETS_KEY, or none now). */
export function openSecret(stored: string, secretsKey: string | undefined): Buffer | null {
  const [form, ...parts] = stored.split(':');
  if (form === 'plain') return Buffer.from(parts[0] ?? '', 'base64');
  if (form !== 'v1' || !secretsKey || parts.length !== 3) return null;
  try {
    const [iv, tag, sealed] = parts.map((p) => Buffer.from(p, 'base64'));
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secretsKey), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]);
  } catch {
    return null;
  }
}

const sealingKey = (secretsKey: string) => createHash('sha256').update(`namefi-local sealed secrets\0${secretsKey}`).digest();
