import { randomBytes } from 'node:crypto';
import { TSIG_ALGORITHM } from '#core/wire/user.ts';
import { sealSecret } from './secrets.ts';

/** A key's TSIG form as made (contract: The standard doors): shown once, then stored sealed. */
export interface NewTsigForm {
  keyName: string;
  algorithm: typeof TSIG_ALGORITHM;
  secret: string;
  /** What the database keeps. */
  sealed: string;
}

/** The DNS name of a key's TSIG form: the key's id makes it unique; the trailing dot as TSIG tools write it. */
const tsigKeyNameOf = (apiKeyId: string) => `nfk-${apiKeyId.toLowerCase()}.`;

/**
 * Whether a TSIG key name (lowercase, no final dot) has the form this service gives (`nfk-` and a key id): anything
 * else names no key here, and is never looked up (a message's key name is any bytes a sender chose).
 */
export const mayBeTsigKeyName = (name: string) => /^nfk-[0-9a-f-]{36}$/.test(name);

export function newTsigForm(apiKeyId: string, secretsKey: string | undefined): NewTsigForm {
  const secret = randomBytes(32);
  return { keyName: tsigKeyNameOf(apiKeyId), algorithm: TSIG_ALGORITHM, secret: secret.toString('base64'), sealed: sealSecret(secret, secretsKey) };
}
