// Child process of pglite-template.ts: initdb and the migrations into argv[2], then exit so that its memory is released.
import { PGlite } from '@electric-sql/pglite';
import { migrate } from './migrate.ts';

const target = process.argv[2];
if (!target) throw new Error('usage: pglite-initdb.ts <data dir>');
const db = await PGlite.create(target);
await migrate({
  query: async (sql, params = []) => (await db.query(sql, params)).rows as never,
  exec: async (sql) => void (await db.exec(sql)),
  transaction: (fn) => db.transaction((tx) => fn({ query: async (sql, params = []) => (await tx.query(sql, params)).rows as never })),
  exclusive: (_key, fn) => fn(),
  close: () => db.close(),
});
await db.close();
