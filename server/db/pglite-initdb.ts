// Child process of pglite-template.ts: initdb into argv[2], then exit so that its memory is released.
import { PGlite } from '@electric-sql/pglite';

const target = process.argv[2];
if (!target) throw new Error('usage: pglite-initdb.ts <data dir>');
const db = await PGlite.create(target);
await db.close();
