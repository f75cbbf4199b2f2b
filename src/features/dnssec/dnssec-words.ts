/** What the DNSSEC panel says, in one place: before the wallet opens, and about the chain of trust. */

export function dnssecSigningLines(domain: string, enable: boolean): string[] {
  return enable
    ? [`Turn DNSSEC on for ${domain}: the service makes the zone's signing key and signs every record`]
    : [`Turn DNSSEC off for ${domain}: the service deletes the zone's key and every signature`];
}

export const DNSSEC_ON_MEANS =
  'Every answer the name servers give for this domain will carry a signature, so a validating resolver can tell it came from this zone unchanged. ' +
  'The service keeps the signing key and signs again after every change you make.';

export const DNSSEC_ON_NEXT =
  'Next: add the DS record shown here at your registrar (the parent zone). Until the parent publishes it, resolvers treat the answers as unsigned; nothing breaks meanwhile.';

export const DNSSEC_OFF_WARNING =
  'If your registrar publishes this zone’s DS record, remove it there first and wait a day: a resolver that still holds the DS and finds no signature refuses every answer for the domain.';

/** The parent's side of the chain. Locally there is no parent zone: no registrar or TLD publishes a DS. */
export function chainState(domain: string): string {
  const parent = domain.includes('.') ? domain.slice(domain.indexOf('.') + 1) : domain;
  return `The parent zone (.${parent}) has no DS record for ${domain} yet, so the chain of trust stops there: resolvers see the answers as unsigned until the DS is added at the registrar.`;
}

export const ALGORITHM_NAMES: Record<number, string> = { 13: 'ECDSA P-256 with SHA-256' };
export const DIGEST_NAMES: Record<number, string> = { 2: 'SHA-256' };
