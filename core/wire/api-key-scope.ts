import { z } from 'zod';
import { isoDate, zoneName } from './common.ts';
import { scopeNames, scopeTypes } from './scope-fields.ts';

/**
 * A scoped API key's limits (contract: Access): zones ([] = every zone the wallet owns), names and types ([] = every
 * one), read or write, an expiry, and the client addresses it may be used from ([] = any). No scope: the old,
 * unlimited key (listed with `scope: null`).
 */
export const apiKeyScope = z.object({
  zones: z.array(zoneName).max(50, 'At most 50 zones'),
  names: scopeNames,
  types: scopeTypes,
  access: z.enum(['read', 'write'], { error: 'access is "read" or "write"' }),
  expiresAt: isoDate.nullable(),
  cidrs: z
    .array(z.string().regex(/^[0-9a-fA-F:.]+\/\d{1,3}$/, 'Write an address range as CIDR, like 203.0.113.0/24 or 2001:db8::/32'))
    .max(20, 'At most 20 address ranges'),
});
export type ApiKeyScope = z.infer<typeof apiKeyScope>;
