import type { z } from 'zod';
import type { createApiKeyInput } from '#core/wire/user.ts';
import { generateApiKey, hashApiKey } from '../auth/api-key.ts';
import type { Handlers, RequestContext } from '../http/context.ts';
import type { Principal } from '../services.ts';
import { forbidden, invalidInput, notFound, unauthorized } from '../domain-errors.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { parseCidr } from '../net/addresses.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function walletOf(principal: Principal | null): string {
  if (!principal) throw unauthorized();
  return principal.wallet;
}

/** Keys are made and revoked by the wallet itself: never by a key (a key could otherwise outgrow its scope). */
function refuseKey(principal: Principal | null, what: string, scopedOnly = false): void {
  if (principal?.via !== 'api-key' || (scopedOnly && !principal.apiKeyScope)) return;
  throw forbidden(`An API key cannot ${what}: sign in with the wallet`, { reason: 'api-key' });
}

interface KeyRow {
  id: string;
  label: string;
  prefix: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  scope: ApiKeyScope | string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();
const scopeOf = (scope: ApiKeyScope | string | null): ApiKeyScope | null => (typeof scope === 'string' ? (JSON.parse(scope) as ApiKeyScope) : scope);

export const apiKeyHandlers: Handlers = {
  async createApiKey({ input, principal, services }: RequestContext<z.infer<typeof createApiKeyInput>>) {
    const wallet = walletOf(principal);
    refuseKey(principal, 'create keys');
    const created = generateApiKey();
    const now = services.now();
    const scope = input.scope ?? null;
    if (scope?.expiresAt && Date.parse(scope.expiresAt) <= now.getTime()) throw invalidInput({ 'scope.expiresAt': ['A key’s expiry lies in the future'] });
    const badCidr = scope?.cidrs.find((c) => !parseCidr(c));
    if (badCidr) throw invalidInput({ 'scope.cidrs': [`${badCidr} is not an address range (CIDR)`] });
    await services.db.query(
      'INSERT INTO api_keys (id, wallet_address, label, key_hash, prefix, created_at, scope) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [created.id, wallet, input.label, hashApiKey(created.key), created.prefix, now.toISOString(), scope ? JSON.stringify(scope) : null],
    );
    // The only time the key itself leaves the service.
    return { id: created.id, label: input.label, key: created.key, createdAt: now.toISOString(), scope };
  },

  async listApiKeys({ principal, services }) {
    const rows = await services.db.query<KeyRow>(
      'SELECT id, label, prefix, created_at, last_used_at, scope FROM api_keys WHERE wallet_address = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id',
      [walletOf(principal)],
    );
    return rows.map((r) => ({ id: r.id, label: r.label, prefix: r.prefix, createdAt: iso(r.created_at), lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null, scope: scopeOf(r.scope) }));
  },

  async revokeApiKey({ params, principal, services }) {
    const wallet = walletOf(principal);
    refuseKey(principal, 'revoke keys with a scope of its own', true);
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
