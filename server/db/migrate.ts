import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database, Queryable } from './database.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/**
 * The schema's advisory lock. The two-key form is its own lock space, apart from the one-key
 * `pg_advisory_xact_lock(hashtext(...))` locks elsewhere, so no hashed name can ever collide with it.
 */
const MIGRATION_LOCK = [0x6e616d65, 1]; // 'name', 1

/**
 * Applies every `NNN_name.sql` in migrations/ not yet recorded, each in its own transaction, in order.
 * Instances started together on one database take turns: each transaction first takes the schema's advisory lock
 * and reads what is applied under it, so a migration runs once and a second instance never races the first's
 * DDL (two concurrent CREATE TABLEs collide in pg_type even with IF NOT EXISTS).
 */
export async function migrate(db: Database): Promise<string[]> {
  await db.transaction(async (tx) => {
    await lockSchema(tx);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  });
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f)).sort();
  const ran: string[] = [];
  for (const file of files) {
    const version = Number(file.slice(0, 3));
    // A quick look without the lock: an up-to-date database starts without waiting for anyone.
    if ((await db.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).length > 0) continue;
    const sql = await readFile(MIGRATIONS_DIR + file, 'utf8');
    const applied = await db.transaction(async (tx) => {
      await lockSchema(tx);
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])).length > 0) return false;
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [version, file]);
      return true;
    });
    if (applied) ran.push(file);
  }
  return ran;
}

/** Held until the transaction ends, so a crash mid-migration frees it with the rolled-back work. */
const lockSchema = (tx: Queryable) => tx.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', MIGRATION_LOCK);

function splitStatements(sql: string): string[] {
  return sql
    .replace(/--.*$/gm, '')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
