import { z } from 'zod';
import { GRANT_ROLES } from '../access/scope.ts';
import { address, isoDate, zoneName } from './common.ts';
import { signedWrite } from './history.ts';
import { scopeNames, scopeTypes } from './scope-fields.ts';

/** Grants to other wallets (contract: Access). */
const grantRole = z.enum(GRANT_ROLES, { error: 'role is viewer, editor or manager' });

/** At most this many live grants a zone. */
export const MAX_LIVE_GRANTS = 50;

export const zoneGrant = z.object({
  id: z.string(),
  zoneName: z.string(),
  grantee: z.string(),
  role: grantRole,
  names: z.array(z.string()),
  types: z.array(z.string()),
  expiresAt: isoDate,
  grantedBy: z.string(),
  createdAt: isoDate,
  revokedAt: isoDate.nullable(),
  signed: signedWrite,
});
export type ZoneGrant = z.infer<typeof zoneGrant>;

/** What the owner signs: `expiresAt` in Unix seconds, as the struct's uint256. */
export const grantZoneAccessInput = z.object({
  zoneName,
  grantee: address.transform((a) => a.toLowerCase()),
  role: grantRole,
  names: scopeNames,
  types: scopeTypes,
  expiresAt: z.number({ error: 'expiresAt is a time in Unix seconds' }).int('expiresAt is a whole number of seconds').min(0).max(2 ** 40, 'expiresAt is too far away'),
});
export type GrantZoneAccessInput = z.infer<typeof grantZoneAccessInput>;

export const revokeZoneAccessInput = z.object({ zoneName, grantId: z.string().uuid('grantId is a grant\u2019s id (a UUID)') });
export type RevokeZoneAccessInput = z.infer<typeof revokeZoneAccessInput>;

export const listZoneAccessQuery = z.object({ zoneName });
export const zoneGrantList = z.array(zoneGrant);

const sharedDomain = z.object({
  normalizedDomainName: z.string(),
  role: grantRole,
  names: z.array(z.string()),
  types: z.array(z.string()),
  expiresAt: isoDate,
  grantedBy: z.string(),
});
export type SharedDomain = z.infer<typeof sharedDomain>;
export const sharedDomains = z.array(sharedDomain);
