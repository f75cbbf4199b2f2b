import type { ApiKeyDoor, ApiKeySummary } from '#core/wire/user.ts';
import { scopeInWords } from '#core/access/scope.ts';

const DOOR_WORDS: Record<ApiKeyDoor, string> = {
  rest: 'the REST API',
  mcp: 'MCP (an AI agent)',
  rfc2136: 'DNS UPDATE (TSIG)',
  dyndns2: 'DynDNS2',
};

/** Whether a key reaches this domain: an old unlimited key, or a scope of every zone or naming this one. */
export const reaches = (key: ApiKeySummary, zoneName: string) => !key.scope || key.scope.zones.length === 0 || key.scope.zones.includes(zoneName);

/** "Writes TXT under _acme-challenge only, by DNS UPDATE (TSIG) or the API", in words. */
export function toolKeyScopeInWords(key: ApiKeySummary): string {
  if (!key.scope) return 'Unlimited (an old key): acts as your wallet on every domain';
  const what = `${key.scope.access === 'read' ? 'Reads only' : 'Writes'} ${scopeInWords(key.scope)}`;
  const until = key.scope.expiresAt ? `, until ${key.scope.expiresAt.slice(0, 10)}` : '';
  const from = key.scope.cidrs.length > 0 ? `, from ${key.scope.cidrs.join(', ')}` : '';
  return `${what}${until}${from}${key.tsig ? '; has a TSIG form for DNS UPDATE' : ''}`;
}

/** "Last used 5 minutes ago through DynDNS2", "Never used". */
export function lastUsedInWords(key: ApiKeySummary, now: number): string {
  if (!key.lastUsedAt) return 'Never used';
  const door = key.lastUsedVia ? ` through ${DOOR_WORDS[key.lastUsedVia]}` : '';
  return `Last used ${agoInWords(Date.parse(key.lastUsedAt), now)}${door}`;
}

function agoInWords(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `on ${new Date(at).toISOString().slice(0, 10)}`;
}
