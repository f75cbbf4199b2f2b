import { addYears } from '#core/dates.ts';
import type { Database, Queryable } from '../db/database.ts';
import { tokenIdOf, type DomainToken, type Ownership } from './ownership.ts';

interface DomainRow {
  name: string;
  owner_address: string;
  token_id: string;
  chain_id: number;
  expires_at: Date | string;
}

const toToken = (row: DomainRow): DomainToken => ({
  name: row.name,
  owner: row.owner_address,
  tokenId: row.token_id,
  chainId: row.chain_id,
  expiresAt: new Date(row.expires_at),
});

/** The in-database registry: the default for the local service and for fast tests. */
export function databaseOwnership(db: Database): Ownership {
  return {
    registry: null,
    async ownerOf(name, q: Queryable = db) {
      const [row] = await q.query<DomainRow>('SELECT * FROM domains WHERE name = $1', [name]);
      return row ? toToken(row) : null;
    },
    async mint({ name, to, chainId, years, now }, q: Queryable = db) {
      const expiresAt = addYears(now, years);
      const [row] = await q.query<DomainRow>(
        `INSERT INTO domains (name, owner_address, token_id, chain_id, expires_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
        [name, to.toLowerCase(), tokenIdOf(name), chainId, expiresAt.toISOString(), now.toISOString()],
      );
      return toToken(row);
    },
    async release(name, q: Queryable = db) {
      // Its settings go with it (auto_renew, dnssec_keys: ON DELETE CASCADE).
      await q.query('DELETE FROM domains WHERE name = $1', [name]);
    },
    async setExpiry(name, expiresAt, q: Queryable = db) {
      await q.query('UPDATE domains SET expires_at = $2, updated_at = now() WHERE name = $1', [name, expiresAt.toISOString()]);
    },
    async domainsOf(wallet, q: Queryable = db) {
      const rows = await q.query<DomainRow>('SELECT * FROM domains WHERE owner_address = $1 ORDER BY name', [wallet.toLowerCase()]);
      return rows.map(toToken);
    },
  };
}
