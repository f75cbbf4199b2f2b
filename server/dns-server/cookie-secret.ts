import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/**
 * The master secret of DNS cookies, shared by every instance on this database: made by the first that asks (32
 * random bytes), read by the others. Never logged; the secrets that sign cookies are derived from it per period
 * (cookies.cjs), so it never needs to change for cookies to rotate.
 */
export async function cookieMaster(db: Queryable): Promise<Buffer> {
  await db.query('INSERT INTO dns_cookie_secret (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING', [randomBytes(32).toString('base64')]);
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM dns_cookie_secret WHERE id = 1');
  return Buffer.from(row.secret, 'base64');
}
