import { z } from 'zod';
import { address, INT32_MAX, isoDate } from './common.ts';
import { safeText } from './text.ts';

export const allowedChains = z.array(z.number().int());
export const nonceQuery = z.object({ signerAddress: address });
export const nonceResult = z.union([
  z.object({ valid: z.literal(true), nonce: z.string() }),
  z.object({ valid: z.literal(false), error: z.string() }),
]);
const chainId = z.number().int().positive().max(INT32_MAX, `A chain id is at most ${INT32_MAX}`);
const nonce = safeText().min(8);
export const messageQuery = z.object({ signerAddress: address, nonce, chainId: z.coerce.number().pipe(chainId) });
const siweMessage = z.object({
  address,
  chainId,
  domain: safeText(),
  uri: safeText(),
  nonce,
  statement: safeText(),
  version: z.literal('1'),
  issuedAt: isoDate,
  expirationTime: isoDate,
});
export type SiweMessage = z.infer<typeof siweMessage>;
export const messageResult = z.object({ valid: z.boolean(), message: siweMessage, messageString: z.string() });
export type MessageResult = z.infer<typeof messageResult>;
export const verifyInput = z.object({ address, message: siweMessage, signature: z.string().regex(/^0x[0-9a-fA-F]+$/) });
const session = z.object({
  valid: z.literal(true),
  token: z.string(),
  chainId: z.number().int(),
  createdAt: isoDate,
  maxAgeSeconds: z.number().int(),
});
export const verifyResult = z.union([session, z.object({ valid: z.literal(false), error: z.string() })]);
export const SIWE_STATEMENT = 'Sign in to Namefi API';
export const SIWE_NONCE_TTL_S = 300;
