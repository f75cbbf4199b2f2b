import type { ZoneGrant } from '#core/wire/access.ts';
import type { SignedWrite } from '#core/wire/history.ts';
import type { GrantRole } from '#core/access/scope.ts';
import type { Queryable } from '../db/database.ts';

/** The zone_grants table (migration 070): grants as stored and read. */

interface GrantRow {
  id: string;
  zone_name: string;
  grantee: string;
  role: GrantRole;
  names: string[] | string;
  types: string[] | string;
  expires_at: Date | string;
  granted_by: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
  ended_by: string | null;
  signed: SignedWrite | string;
}

export interface StoredGrant extends ZoneGrant {
  endedBy: string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function grantOf(r: GrantRow): StoredGrant {
  return {
    id: r.id,
    zoneName: r.zone_name,
    grantee: r.grantee,
    role: r.role,
    names: json(r.names),
    types: json(r.types),
    expiresAt: iso(r.expires_at),
    grantedBy: r.granted_by,
    createdAt: iso(r.created_at),
    revokedAt: r.revoked_at ? iso(r.revoked_at) : null,
    signed: json(r.signed),
    endedBy: r.ended_by,
  };
}

/** The wire form: what the contract's ZoneGrant holds. */
export function wireGrant(stored: StoredGrant): ZoneGrant {
  const grant: Partial<StoredGrant> = { ...stored };
  delete grant.endedBy;
  return grant as ZoneGrant;
}

export async function insertGrant(q: Queryable, grant: ZoneGrant): Promise<void> {
  await q.query(
    `INSERT INTO zone_grants (id, zone_name, grantee, role, names, types, expires_at, granted_by, created_at, signed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [grant.id, grant.zoneName, grant.grantee, grant.role, JSON.stringify(grant.names), JSON.stringify(grant.types), grant.expiresAt, grant.grantedBy, grant.createdAt, JSON.stringify(grant.signed)],
  );
}

export async function grantById(q: Queryable, zoneName: string, id: string): Promise<StoredGrant | null> {
  const [row] = await q.query<GrantRow>('SELECT * FROM zone_grants WHERE zone_name = $1 AND id = $2', [zoneName, id]);
  return row ? grantOf(row) : null;
}

/**
 * The caller's grant for a zone that decides what they may do: a live one if there is one, else the latest (so a
 * refusal can say why: revoked, expired). Read in the caller's transaction, never cached: a revocation committed
 * on any instance holds for the next request everywhere.
 */
export async function grantFor(q: Queryable, zoneName: string, grantee: string, now: Date): Promise<StoredGrant | null> {
  const [row] = await q.query<GrantRow>(
    `SELECT * FROM zone_grants WHERE zone_name = $1 AND grantee = $2
      ORDER BY (revoked_at IS NULL AND expires_at > $3) DESC, created_at DESC LIMIT 1`,
    [zoneName, grantee.toLowerCase(), now.toISOString()],
  );
  return row ? grantOf(row) : null;
}

/** Live grants of a zone: not revoked, not expired. */
export async function liveGrants(q: Queryable, zoneName: string, now: Date): Promise<StoredGrant[]> {
  const rows = await q.query<GrantRow>('SELECT * FROM zone_grants WHERE zone_name = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at, id', [zoneName, now.toISOString()]);
  return rows.map(grantOf);
}

export async function zoneGrants(q: Queryable, zoneName: string, grantee?: string): Promise<StoredGrant[]> {
  const rows = grantee
    ? await q.query<GrantRow>('SELECT * FROM zone_grants WHERE zone_name = $1 AND grantee = $2 ORDER BY created_at DESC, id', [zoneName, grantee.toLowerCase()])
    : await q.query<GrantRow>('SELECT * FROM zone_grants WHERE zone_name = $1 ORDER BY created_at DESC, id', [zoneName]);
  return rows.map(grantOf);
}

/** The caller's grants, of every zone, neither revoked nor expired (whether each grantor still owns: `grantsThatAct`). */
export async function unexpiredGrantsOf(q: Queryable, grantee: string, now: Date): Promise<StoredGrant[]> {
  const rows = await q.query<GrantRow>(
    'SELECT * FROM zone_grants WHERE grantee = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY zone_name, created_at',
    [grantee.toLowerCase(), now.toISOString()],
  );
  return rows.map(grantOf);
}

export async function endGrant(q: Queryable, id: string, now: Date, by: 'owner' | 'grantee'): Promise<void> {
  await q.query('UPDATE zone_grants SET revoked_at = $2, ended_by = $3 WHERE id = $1 AND revoked_at IS NULL', [id, now.toISOString(), by]);
}

/** A domain moved to another holder: every grant its previous holder made ends. */
export async function endGrantsOnTransfer(q: Queryable, zoneName: string, now: Date): Promise<void> {
  await q.query(`UPDATE zone_grants SET revoked_at = $2, ended_by = 'transfer' WHERE zone_name = $1 AND revoked_at IS NULL`, [zoneName, now.toISOString()]);
}
