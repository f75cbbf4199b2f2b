import { z } from 'zod';
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
});
export type ToggleDnssecInput = z.infer<typeof toggleDnssecInput>;

const dsData = z.object({ keyTag: z.number().int(), algorithm, digestType: z.literal(2), digest: z.string() });
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
});
export type DnssecState = z.infer<typeof dnssecState>;
