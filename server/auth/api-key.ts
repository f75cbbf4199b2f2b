import { randomUUID } from 'node:crypto';
import { API_KEY_PATTERN } from '../../src/core/wire/user.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal } from '../services.ts';
import { unauthorized } from '../domain-errors.ts';
import { randomToken, sha256Hex } from './secrets.ts';

const API_KEY_PREFIX = 'nfk_';
/** How much of a key the list shows, enough to tell keys apart and nothing to guess with. */
const SHOWN_PREFIX_LENGTH = 12;

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
}

export function generateApiKey(): CreatedKey {
  const key = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { id: randomUUID(), key, prefix: key.slice(0, SHOWN_PREFIX_LENGTH) };
}

export const hashApiKey = (key: string) => sha256Hex(key);

/** The wallet that created the key; 401 saying what is wrong with it otherwise. Records its use. */
export async function authenticateApiKey(db: Queryable, key: string, now: Date): Promise<Principal> {
  if (!API_KEY_PATTERN.test(key)) {
    throw unauthorized('The API key is malformed: expected nfk_ followed by 43 base64url characters');
  }
  const hash = hashApiKey(key);
  const [used] = await db.query<{ id: string; wallet_address: string }>(
    'UPDATE api_keys SET last_used_at = $2 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING id, wallet_address',
    [hash, now.toISOString()],
  );
  if (used) return { wallet: used.wallet_address, via: 'api-key', apiKeyId: used.id };
  const [known] = await db.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE key_hash = $1', [hash]);
  if (known) throw unauthorized('The API key was revoked');
  throw unauthorized('The API key is not known: it may belong to another service, or was mistyped');
}
