import { z } from 'zod';
import { safeText } from './text.ts';

const typedField = z.object({ name: z.string(), type: z.string() });
export const typeRegistry = z.record(z.string(), z.array(typedField));
export type TypeRegistry = z.infer<typeof typeRegistry>;
export const signingDomain = z.object({
  name: z.string(),
  version: z.string(),
  chainId: z.number().int().optional(),
});
export type SigningDomain = z.infer<typeof signingDomain>;
export const typesForMethod = z.object({
  found: z.boolean(),
  acceptedPrimaryTypes: z.array(z.string()),
  types: typeRegistry,
  availableMethods: z.array(z.string()).optional(),
  /** Ours: per accepted primary type, the payload fields the service takes unsigned under it. Production sends none. */
  unsignedAccepted: z.record(z.string(), z.array(z.string())).optional(),
});
export type TypesForMethod = z.infer<typeof typesForMethod>;

export const ENVELOPE_WINDOW = { pastSeconds: 300, futureSeconds: 30 } as const;
export const envelope = z.object({
  payloadType: safeText().min(1),
  payload: z.record(z.string(), z.unknown()),
  // A uint256 may be sent as a number or a string; whether it is one (digits, in range) is checked before hashing.
  timestamp: z.union([z.number(), z.string().transform(Number)]),
  nonce: safeText().min(1).max(256),
});
export type Envelope = z.infer<typeof envelope>;
