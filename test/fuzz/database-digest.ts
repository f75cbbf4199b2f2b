import type { Queryable } from '../../server/db/database.ts';

/**
 * What a refused request may legitimately change, left out of the digest:
 * - envelope_nonces: a request whose signature verifies spends its nonce at authentication, which the contract
 *   orders before the input check; a signed request refused for its input must not be replayable.
 * - api_keys.last_used_at and last_used_via: authentication records that a valid key was used, and through which
 *   door, before the input is checked.
 * - tsig_seen: the MACs of the DNS UPDATE messages received (a replay is refused), whatever their fate.
 * - chain_follow_cursor: the transfer follower's place on the chain, moved on its own timer by every new block.
 * - dns_query_counts: the name server's counts, added on their own timer (DoH cases are queries it answered).
 */
const EXCLUDED_TABLES = new Set(['envelope_nonces', 'chain_follow_cursor', 'dns_query_counts', 'tsig_seen']);
const EXCLUDED_COLUMNS = new Set(['api_keys.last_used_at', 'api_keys.last_used_via']);

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** One query answering a digest of every table of the schema (a row per table), built from information_schema. */
export async function digestQuery(db: Queryable): Promise<string> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const { table_name, column_name } of columns) {
    if (EXCLUDED_TABLES.has(table_name) || EXCLUDED_COLUMNS.has(`${table_name}.${column_name}`)) continue;
    byTable.set(table_name, [...(byTable.get(table_name) ?? []), column_name]);
  }
  if (byTable.size === 0) throw new Error('No tables to digest: is the database migrated?');
  return [...byTable]
    .map(
      ([table, cols]) =>
        `SELECT ${`'${table}'`} AS name, (SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) FROM (SELECT ${cols.map(quote).join(', ')} FROM ${quote(table)}) t) AS digest`,
    )
    .join(' UNION ALL ');
}

export async function digest(db: Queryable, query: string): Promise<Record<string, string>> {
  const rows = await db.query<{ name: string; digest: string }>(query);
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

/** Tables whose digest differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
