import type { z } from 'zod';
import type { createApiKeyInput } from '../../src/core/wire/user.ts';
import { generateApiKey, hashApiKey } from '../auth/api-key.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import type { Principal } from '../services.ts';
import { notFound, unauthorized } from '../domain-errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function walletOf(principal: Principal | null): string {
  if (!principal) throw unauthorized();
  return principal.wallet;
}

interface KeyRow {
  id: string;
  label: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export const apiKeyHandlers: Handlers = {
  async createApiKey({ input, principal, services }: RequestContext<z.infer<typeof createApiKeyInput>>) {
    const wallet = walletOf(principal);
    const created = generateApiKey();
    const now = services.now();
    await services.db.query(
      'INSERT INTO api_keys (id, wallet_address, label, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [created.id, wallet, input.label, hashApiKey(created.key), created.prefix, now.toISOString()],
    );
    // The only time the key itself leaves the service.
    return { id: created.id, label: input.label, key: created.key, createdAt: now.toISOString() };
  },

  async listApiKeys({ principal, services }) {
    const rows = await services.db.query<KeyRow>(
      'SELECT id, label, prefix, created_at, last_used_at FROM api_keys WHERE wallet_address = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id',
      [walletOf(principal)],
    );
    return rows.map((r) => ({ id: r.id, label: r.label, prefix: r.prefix, createdAt: iso(r.created_at), lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null }));
  },

  async revokeApiKey({ params, principal, services }) {
    const wallet = walletOf(principal);
    const id = params.id ?? '';
    const missing = () => notFound(`No API key ${id} among this wallet's keys`);
    if (!UUID.test(id)) throw missing();
    const rows = await services.db.query(
      'UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND wallet_address = $2 AND revoked_at IS NULL RETURNING id',
      [id, wallet, services.now().toISOString()],
    );
    if (rows.length === 0) throw missing();
    return { success: true };
  },
};
