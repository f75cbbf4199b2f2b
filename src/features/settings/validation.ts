import { API_KEY_PATTERN } from '#core/wire/user.ts';
import { serviceAllowed } from '@/app/csp.ts';

/** Origins this build's Content-Security-Policy lets the dashboard connect to; undefined where none applies. */
export interface ServicePolicy {
  origins: readonly string[];
  pageOrigin: string;
}

export function serviceUrlError(value: string, policy?: ServicePolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'Enter a full URL, like https://api.namefi.io/v-next';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The URL must start with https:// or http://';
  if (!url.pathname.replace(/\/+$/, '').endsWith('/v-next')) return 'The service URL ends in /v-next, like https://api.namefi.io/v-next';
  if (policy && !serviceAllowed(url.href, policy.origins, policy.pageOrigin)) {
    return `This dashboard may only connect to ${policy.origins.join(', ')} (its Content-Security-Policy); another service needs its own build`;
  }
  return undefined;
}

export function apiKeyError(value: string): string | undefined {
  const key = value.trim();
  if (!key) return 'Paste an API key, or use Forget key to remove it';
  if (!API_KEY_PATTERN.test(key)) return 'An API key looks like nfk_ followed by 43 letters, digits, - or _';
  return undefined;
}

export function addressError(value: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value.trim())) return 'Enter a 0x-prefixed address of 40 hex characters';
  return undefined;
}
