import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import type { Queryable } from '../../db/database.ts';
import { openSecret } from '../../auth/secrets.ts';
import { mayBeTsigKeyName } from '../../auth/tsig-form.ts';
import type { TsigKey } from '../../dns-server/tsig.ts';

/**
 * The TSIG forms of scoped API keys, read from the database at each use: nothing is cached, so a revoked key ends on
 * every instance at once. The secret is opened in memory only (server/auth/secrets.ts), never logged.
 */

/** The live key whose TSIG form is named `name` (lowercase, no final dot), or null. */
export async function findTsigKey(db: Queryable, name: string, secretsKey: string | undefined): Promise<TsigKey | null> {
  if (!mayBeTsigKeyName(name)) return null;
  const [row] = await db.query<{ id: string; tsig_secret: string }>('SELECT id, tsig_secret FROM api_keys WHERE tsig_key_name = $1 AND revoked_at IS NULL', [`${name}.`]);
  const secret = row ? openSecret(row.tsig_secret, secretsKey) : null;
  return row && secret ? { name, secret, apiKeyId: row.id } : null;
}

export interface KeyHolder {
  wallet: string;
  scope: ApiKeyScope;
}

export interface KeyUse {
  /** The key's wallet and scope; null once it is revoked. */
  holder: KeyHolder | null;
  /** Whether a message with this MAC was received before (a replay). */
  replayed: boolean;
  /** Whether the service holds the zone the message names. */
  held: boolean;
}

const SEEN_FOR_MS = 600_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * One statement for what an UPDATE asks before it is read further: the key's wallet and scope (its use recorded:
 * when, and through which door), whether its MAC was seen before (remembered otherwise, for twice the fudge, on
 * every instance: a replay is refused wherever it arrives), and whether the zone is held here.
 */
export async function useKey(db: Queryable, request: { apiKeyId: string; mac: Buffer; zone: string }, now: Date, pruned: { atMs: number }): Promise<KeyUse> {
  if (now.getTime() - pruned.atMs > PRUNE_EVERY_MS) {
    pruned.atMs = now.getTime();
    await db.query('DELETE FROM tsig_seen WHERE seen_at < $1', [new Date(now.getTime() - SEEN_FOR_MS).toISOString()]);
  }
  const [row] = await db.query<{ wallet_address: string | null; scope: ApiKeyScope | string | null; fresh: number; held: boolean }>(
    `WITH seen AS (INSERT INTO tsig_seen (mac, seen_at) VALUES ($3, $2) ON CONFLICT (mac) DO NOTHING RETURNING mac),
          used AS (UPDATE api_keys SET last_used_at = $2, last_used_via = 'rfc2136' WHERE id = $1 AND revoked_at IS NULL RETURNING wallet_address, scope)
     SELECT (SELECT wallet_address FROM used) AS wallet_address, (SELECT scope FROM used) AS scope, (SELECT count(*) FROM seen)::int AS fresh,
            EXISTS (SELECT 1 FROM domains WHERE name = $4) AS held`,
    [request.apiKeyId, now.toISOString(), request.mac.toString('base64'), request.zone],
  );
  const scope = typeof row.scope === 'string' ? (JSON.parse(row.scope) as ApiKeyScope) : row.scope;
  return { holder: row.wallet_address && scope ? { wallet: row.wallet_address, scope } : null, replayed: Number(row.fresh) === 0, held: row.held };
}

/** A transfer's key: its wallet and scope, its use recorded; null once it is revoked. */
export async function useTransferKey(db: Queryable, apiKeyId: string, now: Date): Promise<KeyHolder | null> {
  const [row] = await db.query<{ wallet_address: string; scope: ApiKeyScope | string | null }>(
    "UPDATE api_keys SET last_used_at = $2, last_used_via = 'rfc2136' WHERE id = $1 AND revoked_at IS NULL RETURNING wallet_address, scope",
    [apiKeyId, now.toISOString()],
  );
  const scope = typeof row?.scope === 'string' ? (JSON.parse(row.scope) as ApiKeyScope) : row?.scope;
  return row && scope ? { wallet: row.wallet_address, scope } : null;
}
