import { z } from 'zod';
import { ROLLOVER_PHASES } from '../dns/rollover.ts';
import { zoneName } from './common.ts';

export const dnssecQuery = z.object({ normalizedDomainName: zoneName });

/** The algorithms a zone may be signed with: 13 (ECDSA P-256, the default) or 15 (Ed25519). */
const algorithm = z.union([z.literal(13), z.literal(15)]);
/** How absence is proven: NSEC (the default) or NSEC3 with RFC 9276's parameters (SHA-1, no extra iterations, no salt). */
const DENIALS = ['nsec', 'nsec3'] as const;
const denial = z.enum(DENIALS);

/**
 * Signs a zone or stops signing it; with the choices, how it is signed. A choice left out keeps what the zone has
 * (or the default for a zone signed now); `nsec3OptOut` leaves unsigned delegations out of an NSEC3 chain.
 */
export const toggleDnssecInput = z.object({
  normalizedDomainName: zoneName,
  enabled: z.boolean(),
  algorithm: algorithm.optional(),
  denial: denial.optional(),
  nsec3OptOut: z.boolean().optional(),
  /**
   * During an algorithm rollover: the key tag of the DS the parent now holds, the new key's (the owner put it there,
   * or the parent took it from CDS). The old key may then go once the old DS has left the caches.
   */
  dsAtParent: z.number().int().min(0).max(65535).optional(),
});
export type ToggleDnssecInput = z.infer<typeof toggleDnssecInput>;

const dsData = z.object({ keyTag: z.number().int(), algorithm, digestType: z.literal(2), digest: z.string() });

const rolloverKey = z.object({ algorithm, keyTag: z.number().int(), ds: z.string() });
/**
 * An algorithm rollover under way (RFC 6781 §4.1.4): the key it rolls from and to (each with its DS record in
 * presentation form), the phase reached and since when, and when the next step is due (null: once the owner says
 * the parent holds the new DS).
 */
const dnssecRollover = z.object({
  from: rolloverKey,
  to: rolloverKey,
  phase: z.enum(ROLLOVER_PHASES),
  since: z.string(),
  nextStepAt: z.string().nullable(),
});
export type DnssecRollover = z.infer<typeof dnssecRollover>;
/**
 * A zone's DNSSEC state; `dnskey` and `dsRecords` in presentation form, as a registrar or parent zone asks for them.
 * A service that offers no choice of denial (production) leaves `denial` and `nsec3OptOut` out: NSEC, as it signs.
 */
export const dnssecState = z.object({
  normalizedDomainName: z.string(),
  enabled: z.boolean(),
  algorithm,
  denial: denial.default('nsec'),
  nsec3OptOut: z.boolean().default(false),
  keyTag: z.number().int().nullable(),
  dnskey: z.string().nullable(),
  ds: z.array(dsData),
  dsRecords: z.array(z.string()),
  /** An algorithm rollover under way, else null. `algorithm`, `keyTag`, `dnskey` and `ds` are then the key whose DS the parent should hold now. */
  rollover: dnssecRollover.nullable().default(null),
});
export type DnssecState = z.infer<typeof dnssecState>;
