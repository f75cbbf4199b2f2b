import type { OperationId } from '#core/operations/index.ts';
import { roleNeeded } from '#core/access/role.ts';
import { nameCovered, outOfScope, roleAtLeast, scopeInWords, type RecordScope } from '#core/access/scope.ts';
import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import type { DoorChange, ZoneChangeFacts } from '#core/wire/history.ts';
import type { Queryable } from '../db/database.ts';
import { forbidden, notFound, unauthorized } from '../domain-errors.ts';
import { authorOf, type ChangeAuthor } from '../history/record-change.ts';
import type { DomainToken } from '../ownership/ownership.ts';
import type { Principal, Services } from '../services.ts';
import { grantById, grantFor, unexpiredGrantsOf, type StoredGrant } from './grants.ts';

/**
 * Who may do what to a zone: the one place (contract: Access). The zone-change pipeline asks `authoriseZoneChange`
 * before it runs a command and `requireChangeInScope` on what the command did (inside the same transaction, so a
 * refusal writes nothing); the read paths (history, analytics) ask `requireZoneReader`. Nothing here is cached: the
 * grant is read in the caller's transaction, so a revocation holds at once on every instance.
 *
 * The checks, in order: a principal at all (401) → the domain registered (404) → an API key's scope: read or write,
 * its zones (403) → the owner? (an owner-only operation refuses a key) → else the caller's grant: none, revoked,
 * expired, or made by a wallet that no longer owns the domain (403) → an API key on a zone held only by grant (403:
 * a grant acts through its grantee's own signature) → the grant's role against the operation (403) → after the
 * command: every record touched, before and after, within the grant's and the key's names and types (403).
 */

/** What the change must stay within: a grant's names and types, a key's. */
export interface ZoneAuthority {
  author: ChangeAuthor;
  scopes: Array<{ what: string; scope: RecordScope }>;
}

const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** Why an API key may not reach this zone, or null. */
function keyRefusal(scope: ApiKeyScope | null | undefined, zoneName: string, wants: 'read' | 'write'): string | null {
  if (!scope) return null;
  if (wants === 'write' && scope.access === 'read') return 'The API key may only read: its scope does not allow changes';
  if (scope.zones.length > 0 && !scope.zones.includes(zoneName)) return `The API key's scope does not include ${zoneName} (it covers ${scope.zones.join(', ')})`;
  return null;
}

/** A scoped key reads only its zones (the grants of one, say): 403 naming why. */
export function requireKeyReach(principal: Principal, zoneName: string): void {
  const keyWhy = keyRefusal(principal.apiKeyScope, zoneName, 'read');
  if (keyWhy) throw forbidden(keyWhy, { domain: zoneName, reason: 'api-key-scope' });
}

async function ownerToken(services: Pick<Services, 'ownership'>, q: Queryable, zoneName: string): Promise<DomainToken> {
  const token = await services.ownership.ownerOf(zoneName, q);
  if (!token) throw notFound(`No domain ${zoneName} is registered here`);
  return token;
}

/** Why a grant cannot act now, or null when it is live. */
function grantRefusal(grant: StoredGrant, owner: string, now: Date, zoneName: string): string | null {
  if (grant.revokedAt) {
    const by = grant.endedBy === 'transfer' ? ` when ${zoneName} moved to another holder` : grant.endedBy === 'grantee' ? ' (given up by its grantee)' : ' by the owner';
    return `Your ${grant.role} grant for ${zoneName} was revoked${by} on ${grant.revokedAt.slice(0, 10)}`;
  }
  if (Date.parse(grant.expiresAt) <= now.getTime()) return `Your ${grant.role} grant for ${zoneName} expired on ${grant.expiresAt}`;
  if (grant.grantedBy !== owner) return `Your grant for ${zoneName} was made by ${short(grant.grantedBy)}, which no longer owns it`;
  return null;
}

/**
 * A grant acts only through its grantee's own signature (an EIP-712 envelope, a SIWE session), never through an API
 * key: the owner signed the grant for that wallet's hand, and a grantee's change carries both signatures so that it
 * verifies offline; a key, scoped or not, carries neither. "No grantee makes keys for the zone" (contract: Access).
 */
export function requireGranteeSignature(principal: Principal, grant: Pick<StoredGrant, 'id' | 'role'>, zoneName: string): void {
  if (principal.via !== 'api-key') return;
  throw forbidden(
    `Your ${grant.role} grant for ${zoneName} acts only through your own wallet's signature: an API key cannot use it (only the owner's keys reach ${zoneName})`,
    { domain: zoneName, grantId: grant.id, reason: 'grant-needs-signature' },
  );
}

/** The caller's live grant, used by their own signature; or a 403 naming why there is none. */
async function liveGrantOf(q: Queryable, zoneName: string, principal: Principal, owner: string, now: Date): Promise<StoredGrant> {
  const grant = await grantFor(q, zoneName, principal.wallet, now);
  if (!grant) throw forbidden(`The wallet ${principal.wallet} does not own ${zoneName}`, { domain: zoneName, owner });
  const why = grantRefusal(grant, owner, now, zoneName);
  if (why) throw forbidden(why, { domain: zoneName, grantId: grant.id, reason: grant.revokedAt ? 'revoked' : Date.parse(grant.expiresAt) <= now.getTime() ? 'expired' : 'grantor-no-longer-owns' });
  requireGranteeSignature(principal, grant, zoneName);
  return grant;
}

export async function authoriseZoneChange(
  services: Pick<Services, 'ownership'>,
  tx: Queryable,
  change: { zoneName: string; principal: Principal | null; operation: OperationId | DoorChange; now: Date; grantId?: string },
): Promise<ZoneAuthority> {
  const { zoneName, principal, operation, now } = change;
  if (!principal) throw unauthorized();
  const owner = (await ownerToken(services, tx, zoneName)).owner.toLowerCase();
  const keyWhy = keyRefusal(principal.apiKeyScope, zoneName, 'write');
  if (keyWhy) throw forbidden(keyWhy, { domain: zoneName, reason: 'api-key-scope' });
  const keyScopes = principal.apiKeyScope ? [{ what: "the API key's scope", scope: principal.apiKeyScope }] : [];
  const needed = roleNeeded(operation);
  if (principal.wallet.toLowerCase() === owner) {
    if (needed === null && principal.via === 'api-key') throw forbidden('Only the owner\u2019s own signature grants or revokes access: an API key cannot', { domain: zoneName, reason: 'api-key' });
    return { author: authorOf(operation, principal), scopes: keyScopes };
  }
  // A grantee giving up their own grant (any state).
  if (operation === 'revokeZoneAccess' && change.grantId) {
    const grant = await grantById(tx, zoneName, change.grantId);
    if (grant && grant.grantee === principal.wallet.toLowerCase()) {
      requireGranteeSignature(principal, grant, zoneName);
      return { author: authorOf(operation, principal), scopes: [] };
    }
  }
  const grant = await liveGrantOf(tx, zoneName, principal, owner, now);
  if (needed === null || !roleAtLeast(grant.role, needed)) {
    const what = needed === null ? 'only the owner may do this' : `this needs the ${needed} role`;
    throw forbidden(`Your ${grant.role} grant for ${zoneName} does not allow ${operation}: ${what}`, { domain: zoneName, grantId: grant.id, reason: 'role' });
  }
  const author = authorOf(operation, principal);
  author.actor.grant = { id: grant.id, role: grant.role, signed: grant.signed };
  return { author, scopes: [{ what: `your ${grant.role} grant`, scope: grant }, ...keyScopes] };
}

/** After the command: every record the change touched, before and after, lies within each scope; else 403 (rolled back). */
export function requireChangeInScope(authority: ZoneAuthority, zoneName: string, facts: ZoneChangeFacts): void {
  if (authority.scopes.length === 0) return;
  const touched = facts.changes.flatMap((c) => [c.before, c.after]);
  // How a zone is signed (its algorithm, proof of absence, a rollover's step) is DNSSEC's setting too.
  const signing = facts.dnssecSigning !== undefined || facts.dnssecRollover !== undefined;
  const settings = (['parking', 'forwarding', 'dnssec'] as const).filter((key) => facts[key] !== undefined || (key === 'dnssec' && signing));
  for (const { what, scope } of authority.scopes) {
    // A setting is the whole zone's: only a scope of every type at the apex covers it.
    if (settings.length > 0 && (scope.types.length > 0 || !nameCovered(scope.names, '@'))) {
      throw forbidden(`Out of scope: ${what} covers ${scopeInWords(scope)}; this change sets ${settings.join(', ')} of ${zoneName}, which needs every type at the apex`, { domain: zoneName, reason: 'out-of-scope' });
    }
    const outside = outOfScope(scope, touched);
    if (outside) throw forbidden(`Out of scope: ${what} covers ${scopeInWords(scope)}; this change touches ${outside} of ${zoneName}`, { domain: zoneName, reason: 'out-of-scope', record: outside });
  }
}

/**
 * Who may read a zone's history and analytics: its owner, or a wallet with a live grant of any role (a viewer
 * included); an API key only within its zones. 401 without a principal, 404 for a zone nobody holds, 403 otherwise.
 */
export async function requireZoneReader(services: Pick<Services, 'ownership'>, q: Queryable, zoneName: string, principal: Principal | null, now: Date): Promise<void> {
  if (!principal) throw unauthorized();
  const owner = (await ownerToken(services, q, zoneName)).owner.toLowerCase();
  const keyWhy = keyRefusal(principal.apiKeyScope, zoneName, 'read');
  if (keyWhy) throw forbidden(keyWhy, { domain: zoneName, reason: 'api-key-scope' });
  if (principal.wallet.toLowerCase() === owner) return;
  await liveGrantOf(q, zoneName, principal, owner, now);
}

/**
 * The wallet's grants that act now (getSharedDomains): by the rule a change is checked with (`grantRefusal`), against
 * the owner `ownership` answers (the chain's holder on a chain), so the list never shows a grant a write would refuse.
 */
export async function grantsThatAct(services: Pick<Services, 'ownership'>, q: Queryable, grantee: string, now: Date): Promise<StoredGrant[]> {
  const grants = await unexpiredGrantsOf(q, grantee, now);
  const zones = [...new Set(grants.map((g) => g.zoneName))];
  const tokens = await Promise.all(zones.map((zone) => services.ownership.ownerOf(zone, q)));
  const owners = new Map(zones.map((zone, i) => [zone, tokens[i]?.owner.toLowerCase()]));
  return grants.filter((g) => {
    const owner = owners.get(g.zoneName);
    return owner !== undefined && grantRefusal(g, owner, now, g.zoneName) === null;
  });
}
