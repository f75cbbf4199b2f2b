import type { ApiKeyScope } from '#core/wire/api-key-scope.ts';
import { scopeInWords } from '#core/access/scope.ts';

/**
 * What a person wants to connect, not which protocol it speaks: each purpose makes the narrowest key it needs
 * (contract: The standard doors) and the configuration of the tools that serve it.
 */
export const PURPOSES = {
  certificates: { title: 'Certificates', tools: 'certbot, lego, Caddy, Traefik, cert-manager', door: 'DNS UPDATE (RFC 2136) with a TSIG key' },
  kubernetes: { title: 'Kubernetes', tools: 'external-dns', door: 'DNS UPDATE (RFC 2136) with a TSIG key' },
  terraform: { title: 'Terraform', tools: 'the hashicorp/dns provider', door: 'DNS UPDATE (RFC 2136) with a TSIG key' },
  router: { title: 'Home router or ddclient', tools: 'ddclient, inadyn, a router’s DynDNS setting', door: 'DynDNS2' },
} as const;
export type Purpose = keyof typeof PURPOSES;
export const PURPOSE_IDS = Object.keys(PURPOSES) as Purpose[];

/** The purpose's label as the picker shows it: "Certificates (certbot, lego, Caddy, Traefik, cert-manager)". */
export const purposeLabel = (purpose: Purpose) => (purpose === 'router' ? PURPOSES.router.title : `${PURPOSES[purpose].title} (${PURPOSES[purpose].tools})`);

/** Whether the purpose's tools send DNS UPDATE, and so need the key's TSIG form (the router's DynDNS2 does not). */
export const needsTsig = (purpose: Purpose) => purpose !== 'router';

const RELATIVE_NAME = /^(\*|(\*\.)?[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*)$/;

/**
 * A name the person typed, relative to the zone: `www` and `www.example.com` are `www`; the zone itself and `@` are
 * the apex (`@`); a wildcard keeps its `*.`. Anything else typed is read as a name under the zone, as a record name
 * is. Null when it is not a name.
 */
export function relativeTo(zoneName: string, typed: string): string | null {
  let name = typed.trim().toLowerCase().replace(/\.$/, '');
  if (name === '@' || name === zoneName) return '@';
  if (name.endsWith(`.${zoneName}`)) name = name.slice(0, -(zoneName.length + 1));
  return RELATIVE_NAME.test(name) ? name : null;
}

/** A relative name as a full name of the zone: `@` → `example.com`, `www` → `www.example.com`. */
export const fullNameOf = (zoneName: string, name: string) => (name === '@' ? zoneName : `${name}.${zoneName}`);

/**
 * The ACME challenge record names a certificate for these names needs: `_acme-challenge` under each name, a
 * wildcard's under its base (`*.example.com` is proved at `_acme-challenge.example.com`), each once.
 */
function challengeNames(names: readonly string[]): string[] {
  const bases = names.map((name) => (name === '*' ? '@' : name.startsWith('*.') ? name.slice(2) : name));
  return [...new Set(bases.map((base) => (base === '@' ? '_acme-challenge' : `_acme-challenge.${base}`)))];
}

/** The narrowest scope the purpose needs on this zone, with the names the person chose (relative). */
export function scopeFor(purpose: Purpose, zoneName: string, names: readonly string[]): ApiKeyScope {
  const base = { zones: [zoneName], access: 'write' as const, expiresAt: null, cidrs: [] };
  if (purpose === 'certificates') return { ...base, names: challengeNames(names), types: ['TXT'] };
  if (purpose === 'router') return { ...base, names: [...new Set(names)], types: ['A', 'AAAA'] };
  // external-dns and Terraform manage the zone's records as a whole: the zone, every name and type, read and write.
  return { ...base, names: [], types: [] };
}

/** What the key about to be made may do, in words. */
export const keyInWords = (scope: ApiKeyScope) => `${scope.access === 'read' ? 'read' : 'write'} ${scopeInWords(scope)} of ${scope.zones.join(', ')}`;
