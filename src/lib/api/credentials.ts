import type { AuthMode } from '#core/operations/index.ts';
import { serviceHeaders } from '#core/headers.ts';
import type { DelegatedAccount } from '../settings/settings-store.ts';
import type { ApiError } from './errors.ts';

export interface Credentials {
  apiKey?: string;
  siweToken?: string;
  delegated?: DelegatedAccount;
}

export function delegatedHeaders(prefix: string, delegated: DelegatedAccount | undefined): Record<string, string> {
  if (!delegated) return {};
  const h = serviceHeaders(prefix);
  return { [delegated.kind === 'eip7702' ? h.eip7702Account : h.erc1271Account]: delegated.address };
}

/**
 * The read credential: the API key when the person gave one (it acts as its wallet everywhere),
 * else the SIWE token. Public operations carry none, so a stale token cannot break them.
 */
export function readCredential(
  prefix: string,
  auth: AuthMode,
  credentials: Credentials,
): { headers: Record<string, string>; credential: NonNullable<ApiError['credential']> } {
  if (auth === 'none') return { headers: {}, credential: 'none' };
  const h = serviceHeaders(prefix);
  const delegated = delegatedHeaders(prefix, credentials.delegated);
  if (credentials.apiKey) return { headers: { [h.apiKey]: credentials.apiKey, ...delegated }, credential: 'api-key' };
  if (credentials.siweToken) return { headers: { [h.siweToken]: credentials.siweToken, ...delegated }, credential: 'siwe' };
  return { headers: {}, credential: 'none' };
}
