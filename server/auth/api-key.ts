import { randomUUID } from 'node:crypto';
import { API_KEY_PATTERN, type ApiKeyDoor } from '#core/wire/user.ts';
import type { Queryable } from '../db/database.ts';
import type { Principal } from '../services.ts';
import { forbidden, unauthorized } from '../domain-errors.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { inAny, parseCidr, type Cidr } from '../net/addresses.ts';
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

/** The wallet that created the key; 401 saying what is wrong with it otherwise. Records its use, and the door it came through. */
export async function authenticateApiKey(db: Queryable, key: string, now: Date, clientAddress?: string, door: ApiKeyDoor = 'rest'): Promise<Principal> {
  if (!API_KEY_PATTERN.test(key)) {
    throw unauthorized('The API key is malformed: expected nfk_ followed by 43 base64url characters');
  }
  const hash = hashApiKey(key);
  const [used] = await db.query<{ id: string; wallet_address: string; scope: ApiKeyScope | string | null }>(
    'UPDATE api_keys SET last_used_at = $2, last_used_via = $3 WHERE key_hash = $1 AND revoked_at IS NULL RETURNING id, wallet_address, scope',
    [hash, now.toISOString(), door],
  );
  if (used) {
    const scope = typeof used.scope === 'string' ? (JSON.parse(used.scope) as ApiKeyScope) : used.scope;
    if (scope) refuseOutOfReach(scope, now, clientAddress);
    return { wallet: used.wallet_address, via: 'api-key', apiKeyId: used.id, apiKeyScope: scope };
  }
  const [known] = await db.query<{ revoked_at: Date | null }>('SELECT revoked_at FROM api_keys WHERE key_hash = $1', [hash]);
  if (known) throw unauthorized('The API key was revoked');
  throw unauthorized('The API key is not known: it may belong to another service, or was mistyped');
}

/** A scoped key past its expiry, or used from an address outside its ranges: 403 naming why (the rest of its scope: server/access/authorise.ts). */
function refuseOutOfReach(scope: ApiKeyScope, now: Date, clientAddress: string | undefined): void {
  const why = keyOutOfReach(scope, now, clientAddress);
  if (why) throw forbidden(why.message, { reason: why.reason });
}

/** Why a scoped key cannot be used now from this address (its expiry, its address ranges), or null: every door asks this. */
export function keyOutOfReach(scope: ApiKeyScope, now: Date, clientAddress: string | undefined): { message: string; reason: 'api-key-expired' | 'api-key-address' } | null {
  if (scope.expiresAt && Date.parse(scope.expiresAt) <= now.getTime()) return { message: `The API key expired on ${scope.expiresAt}`, reason: 'api-key-expired' };
  if (scope.cidrs.length > 0) {
    const ranges = scope.cidrs.map(parseCidr).filter((c): c is Cidr => c !== null);
    if (!inAny(clientAddress, ranges)) return { message: `The API key may be used only from ${scope.cidrs.join(', ')}, not from ${clientAddress ?? 'an unknown address'}`, reason: 'api-key-address' };
  }
  return null;
}
