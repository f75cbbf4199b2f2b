import { toRelative } from '#core/dns/names.ts';
import { outOfScope } from '#core/access/scope.ts';
import { authenticateApiKey } from '../../auth/api-key.ts';
import type { Queryable } from '../../db/database.ts';
import { DomainError } from '../../domain-errors.ts';
import type { Principal, Services } from '../../services.ts';
import { setAddressesCommand, type AddressType } from '../../zones/addresses.ts';
import { changeZone } from '../../zones/pipeline.ts';
import { addressesOf, basicCredentials, fqdnOf, hostnamesOf, MAX_HOSTNAMES } from './request.ts';

/** A key's changes through DynDNS2 in the last hour beyond which it is answered `abuse` (contract: The standard doors). */
export const DYNDNS_CHANGES_PER_HOUR = 60;
const HOUR_MS = 3_600_000;

export interface DynDnsRequest {
  /** The Authorization header as sent. */
  authorization: string | undefined;
  /** The `hostname` and `myip` query parameters as sent (null: absent). */
  hostname: string | null;
  myip: string | null;
  /** The sender's address (TRUSTED_PROXIES applied), the address set when `myip` is absent; null when unknown. */
  sender: string | null;
}

/** The protocol's answer: its status (401 for `badauth` alone) and its text, one line per hostname. */
export interface DynDnsAnswer {
  status: 200 | 401;
  body: string;
}

const once = (line: string, status: 200 | 401 = 200): DynDnsAnswer => ({ status, body: `${line}\n` });

/**
 * DynDNS2's `/nic/update` (contract: The standard doors): a scoped API key (HTTP Basic, its id and the key) sets the
 * addresses of hostnames it covers. Each hostname's IPv4 replaces its A RRset, its IPv6 its AAAA RRset, as one change
 * through the zone-change pipeline (`dynDnsUpdate`, `actor.client: "dyndns2"`). Failures of the request itself
 * (`badauth`, `notfqdn` without any hostname, `numhost`, `badagent` for a `myip` that is not an address) are
 * answered once and write nothing; the rest is answered per hostname, in the order sent.
 */
export async function answerDynDns(services: Services, request: DynDnsRequest): Promise<DynDnsAnswer> {
  const principal = await keyPrincipal(services, request);
  if (!principal) return once('badauth', 401);
  const hostnames = hostnamesOf(request.hostname);
  if (hostnames.length === 0) return once('notfqdn');
  if (hostnames.length > MAX_HOSTNAMES) return once('numhost');
  const asked = addressesOf(request.myip?.trim() ? request.myip : (request.sender ?? ''));
  if (!asked.ok) return request.myip?.trim() ? once('badagent') : once('911');
  const lines: string[] = [];
  // One after the other: two hostnames of one zone would wait on its lock anyway, and the abuse count sees each change.
  for (const hostname of hostnames) lines.push(await updateHost(services, principal, hostname, asked.addresses));
  return { status: 200, body: `${lines.join('\n')}\n` };
}

/** The key's wallet acting through this door, or null (`badauth`): no key, an unknown or revoked one, another key's id, expired, or from outside its address ranges. */
async function keyPrincipal(services: Services, request: DynDnsRequest): Promise<Principal | null> {
  const credentials = basicCredentials(request.authorization);
  if (!credentials) return null;
  try {
    const principal = await authenticateApiKey(services.db, credentials.key, services.now(), request.sender ?? undefined, 'dyndns2');
    return principal.apiKeyId === credentials.keyId ? { ...principal, client: 'dyndns2' } : null;
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

async function updateHost(services: Services, principal: Principal, hostname: string, addresses: Partial<Record<AddressType, string>>): Promise<string> {
  const fqdn = fqdnOf(hostname);
  if (!fqdn) return 'notfqdn';
  const zoneName = await zoneOf(services.db, fqdn);
  if (!zoneName) return 'nohost';
  const name = toRelative(fqdn, zoneName);
  const types = Object.keys(addresses) as AddressType[];
  // Outside the key's reach is `nohost` before anything is read: what the name holds is none of the key's business.
  if (!keyCovers(principal, zoneName, name, types)) return 'nohost';
  if ((await changesInLastHour(services.db, principal.apiKeyId!, services.now())) >= DYNDNS_CHANGES_PER_HOUR) return 'abuse';
  const shown = types.map((t) => addresses[t]).join(',');
  try {
    const outcome = await changeZone(services, {
      zoneName,
      by: { principal, operation: 'dynDnsUpdate' },
      command: setAddressesCommand(zoneName, name, addresses),
    });
    return `${Object.values(outcome).includes('good') ? 'good' : 'nochg'} ${shown}`;
  } catch (error) {
    if (!(error instanceof DomainError)) {
      console.error(`DynDNS2: updating ${fqdn} failed: ${(error as Error).message}`);
      return '911';
    }
    // Not the wallet's (any more), no grant: not a host of this account. A zone rule (a CNAME there) or a domain in redemption: the DNS refused it.
    if (error.kind === 'forbidden' || error.kind === 'not-found' || error.kind === 'unauthorized') return 'nohost';
    if (error.kind === 'too-many-requests') return 'abuse';
    return 'dnserr';
  }
}

/** The zone here that holds a name: the longest registered domain it lies at or below. */
async function zoneOf(db: Queryable, fqdn: string): Promise<string | null> {
  const labels = fqdn.split('.');
  const candidates = labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  const [row] = await db.query<{ name: string }>('SELECT name FROM domains WHERE name = ANY($1::text[]) ORDER BY length(name) DESC LIMIT 1', [candidates]);
  return row?.name ?? null;
}

/** Whether the key may write these address types at this name of this zone (the pipeline checks it again). */
function keyCovers(principal: Principal, zoneName: string, name: string, types: AddressType[]): boolean {
  const scope = principal.apiKeyScope;
  if (!scope) return true;
  if (scope.access !== 'write') return false;
  if (scope.zones.length > 0 && !scope.zones.includes(zoneName)) return false;
  return outOfScope(scope, types.map((type) => ({ name, type }))) === null;
}

/** The key's DynDNS2 changes in the hour before `now`: its history entries (migration 083's index reads them by key). */
async function changesInLastHour(db: Queryable, apiKeyId: string, now: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM zone_history WHERE operation = 'dynDnsUpdate' AND ((entry::jsonb)->'actor'->>'apiKeyId') = $1 AND at > $2",
    [apiKeyId, new Date(now.getTime() - HOUR_MS).toISOString()],
  );
  return row?.n ?? 0;
}
