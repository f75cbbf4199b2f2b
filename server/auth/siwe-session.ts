import type { Queryable } from '../db/database.ts';
import type { Principal } from '../services.ts';
import { unauthorized } from '../domain-errors.ts';
import { randomToken, sha256Hex } from './secrets.ts';

export interface CreatedSession {
  token: string;
  createdAt: Date;
  expiresAt: Date;
}

/** An opaque session token; only its hash is stored. */
export async function createSession(db: Queryable, input: { address: string; chainId: number; now: Date; ttlSeconds: number }): Promise<CreatedSession> {
  const token = randomToken(32);
  const expiresAt = new Date(input.now.getTime() + input.ttlSeconds * 1000);
  await db.query('INSERT INTO siwe_sessions (token_hash, address, chain_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    sha256Hex(token),
    input.address.toLowerCase(),
    input.chainId,
    input.now.toISOString(),
    expiresAt.toISOString(),
  ]);
  return { token, createdAt: input.now, expiresAt };
}

export async function authenticateSiweToken(db: Queryable, token: string, now: Date): Promise<Principal> {
  const [session] = await db.query<{ address: string; expires_at: Date | string }>(
    'SELECT address, expires_at FROM siwe_sessions WHERE token_hash = $1',
    [sha256Hex(token)],
  );
  if (!session) throw unauthorized('The SIWE session token is not known: sign in again');
  if (new Date(session.expires_at).getTime() <= now.getTime()) throw unauthorized('The SIWE session has expired: sign in again');
  return { wallet: session.address, via: 'siwe' };
}
