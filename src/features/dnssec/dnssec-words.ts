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

export const ALGORITHM_NAMES: Record<number, string> = { 13: 'ECDSA P-256 with SHA-256', 15: 'Ed25519' };

/** How a zone is signed, as the owner chooses it (the same fields the signed switch carries). */
export interface SigningChoice {
  algorithm: 13 | 15;
  denial: 'nsec' | 'nsec3';
  nsec3OptOut: boolean;
}

export const DENIAL_WORDS: Record<SigningChoice['denial'], string> = {
  nsec: 'NSEC (default: names in order, the zone can be listed)',
  nsec3: 'NSEC3 (hashed names, RFC 9276: no salt, no extra iterations; the zone cannot be listed)',
};

export const SAME_DS_NOTE = 'The key stays, so the DS record at your registrar stays as it is: nothing to change there.';

/** The status line's words for how a signed zone is signed. */
export const signedWith = (state: { algorithm: number; denial: SigningChoice['denial']; nsec3OptOut: boolean }) =>
  `${ALGORITHM_NAMES[state.algorithm] ?? `algorithm ${state.algorithm}`}, ${state.denial === 'nsec3' ? `NSEC3${state.nsec3OptOut ? ' with opt-out' : ''}` : 'NSEC'}`;
export const DIGEST_NAMES: Record<number, string> = { 2: 'SHA-256' };
