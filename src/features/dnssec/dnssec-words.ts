import { ROLLOVER_PHASE_WORDS } from '#core/dns/rollover.ts';
import type { DnssecRollover } from '#core/wire/dnssec.ts';

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

/** What the wallet signs to start an algorithm rollover (SetDnssec with the other algorithm). */
export function rolloverSigningLines(domain: string, from: number, choice: SigningChoice): string[] {
  return [
    `Roll ${domain} over from algorithm ${from} (${ALGORITHM_NAMES[from]}) to ${choice.algorithm} (${ALGORITHM_NAMES[choice.algorithm]}), ${choice.denial.toUpperCase()} (SetDnssec): ` +
      'the service makes a new key and signs every record with both keys until the rollover is done',
  ];
}

export const ROLLOVER_MEANS =
  'An algorithm rollover (RFC 6781) never leaves the zone unsigned or invalid: the new key signs every record first, then it is published, ' +
  'then you replace the DS at your registrar when this panel asks, and only after that does the old key go. It takes a day or two.';

/** What the wallet signs to say the registrar holds the new DS (ConfirmParentDs). */
export function confirmDsLines(domain: string, rollover: DnssecRollover): string[] {
  return [
    `The registrar (the parent zone of ${domain}) now holds the DS of key ${rollover.to.keyTag}, algorithm ${rollover.to.algorithm} (ConfirmParentDs): ` +
      `the service then removes the old key ${rollover.from.keyTag} once the old DS has left every cache (a day)`,
  ];
}

const STEP_NUMBER: Record<DnssecRollover['phase'], number> = { 'new-rrsigs': 1, 'new-dnskey': 2, 'new-ds': 3, 'ds-changed': 4, 'dnskey-removal': 5 };

/**
 * Where a rollover stands, in words for the owner: the step, which DS the registrar should hold now, whether to add
 * the new one, and when the old one may go. `when` formats a date.
 */
export function rolloverGuidance(rollover: DnssecRollover, when: (iso: string) => string): { step: string; keep: string; add: string | null; remove: string } {
  const { from, to, phase, nextStepAt } = rollover;
  const next = nextStepAt ? when(nextStepAt) : null;
  const step = `Rolling over from algorithm ${from.algorithm} to ${to.algorithm}, step ${STEP_NUMBER[phase]} of 5: ${ROLLOVER_PHASE_WORDS[phase]}.`;
  switch (phase) {
    case 'new-rrsigs':
    case 'new-dnskey':
      return {
        step,
        keep: `Keep the DS of key ${from.keyTag} at your registrar, as it is.`,
        add: null,
        remove: `Do not add the new DS yet: this panel shows it when the registrar may take it${phase === 'new-dnskey' && next ? `, on ${next}` : ' (step 3)'}.`,
      };
    case 'new-ds':
      return {
        step,
        keep: 'Both keys sign every answer, so either DS validates.',
        add: `Add this DS (key ${to.keyTag}, algorithm ${to.algorithm}) at your registrar now. A registrar that reads CDS/CDNSKEY takes it by itself.`,
        remove: `The old DS (key ${from.keyTag}) may be removed at the same time. Then tell this panel that the registrar holds the new one.`,
      };
    case 'ds-changed':
      return {
        step,
        keep: `The registrar holds the DS of key ${to.keyTag}.`,
        add: null,
        remove: `Remove the old DS (key ${from.keyTag}) at your registrar if it is still there, before ${next ?? 'the next step'}: then the old key stops being published.`,
      };
    case 'dnskey-removal':
      return { step, keep: `Keep the DS of key ${to.keyTag}.`, add: null, remove: `The old DS (key ${from.keyTag}) must be gone from your registrar; the old key's last signatures go on ${next ?? 'the next step'}.` };
  }
}
