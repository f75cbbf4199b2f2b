import type { z } from 'zod';
import { TSIG_ALGORITHM, type ApiKeyDoor, type createApiKeyInput } from '#core/wire/user.ts';
import { generateApiKey, hashApiKey } from '../auth/api-key.ts';
import { newTsigForm } from '../auth/tsig-form.ts';
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
  last_used_via: ApiKeyDoor | null;
  scope: ApiKeyScope | string | null;
  tsig_key_name: string | null;
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
    if (input.tsig && !scope) throw invalidInput({ tsig: ['Only a key with a scope has a TSIG form: give the key a scope'] });
    const tsig = input.tsig ? newTsigForm(created.id, services.config.SECRETS_KEY) : null;
    await services.db.query(
      'INSERT INTO api_keys (id, wallet_address, label, key_hash, prefix, created_at, scope, tsig_key_name, tsig_secret) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [created.id, wallet, input.label, hashApiKey(created.key), created.prefix, now.toISOString(), scope ? JSON.stringify(scope) : null, tsig?.keyName ?? null, tsig?.sealed ?? null],
    );
    // The only time the key itself, and its TSIG secret, leave the service.
    const answer = { id: created.id, label: input.label, key: created.key, createdAt: now.toISOString(), scope };
    return tsig ? { ...answer, tsig: { keyName: tsig.keyName, algorithm: tsig.algorithm, secret: tsig.secret } } : answer;
  },

  async listApiKeys({ principal, services }) {
    const rows = await services.db.query<KeyRow>(
      'SELECT id, label, prefix, created_at, last_used_at, last_used_via, scope, tsig_key_name FROM api_keys WHERE wallet_address = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id',
      [walletOf(principal)],
    );
    return rows.map((r) => ({
      id: r.id,
      label: r.label,
      prefix: r.prefix,
      createdAt: iso(r.created_at),
      lastUsedAt: r.last_used_at ? iso(r.last_used_at) : null,
      lastUsedVia: r.last_used_via,
      scope: scopeOf(r.scope),
      tsig: r.tsig_key_name ? { keyName: r.tsig_key_name, algorithm: TSIG_ALGORITHM } : null,
    }));
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
