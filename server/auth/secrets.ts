import { createHash, randomBytes } from 'node:crypto';

/** Credentials are stored only as this hash, so a copy of the database grants nothing. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** `bytes` random bytes as base64url (32 bytes → 43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
