import { z } from 'zod';
import { apiKeyScope } from './api-key-scope.ts';
import { address, isoDate } from './common.ts';
import { displayText } from './text.ts';

const userDomain = z.object({
  normalizedDomainName: z.string(),
  chainId: z.number().int(),
  ownerAddress: z.string(),
  tokenId: z.string(),
  expirationDate: isoDate,
  dnsStatus: z.object({
    isParkingEnabled: z.boolean(),
    hasWebRecords: z.boolean(),
    hasMxRecords: z.boolean(),
    /** Ours, absent from production: forwarding and DNSSEC switched on. */
    isForwardingEnabled: z.boolean().optional(),
    isDnssecEnabled: z.boolean().optional(),
  }),
  /** Ours, absent from production: how many records the zone stores, and when the domain was first registered here. */
  recordCount: z.number().int().optional(),
  registeredAt: isoDate.optional(),
  /**
   * Ours: the ERC-721 contract that holds the domain's token, which its holder calls (`safeTransferFrom`) to send the
   * domain to another wallet; null when the service keeps ownership in its database (no chain to send it on).
   */
  registry: z.object({ chainId: z.number().int(), address }).nullable().optional(),
  /** Ours (A domain's life): where the domain is in its life after expiry, with the dates (core/expiry.ts). */
  status: z.enum(['active', 'grace', 'redemption']).optional(),
  graceEndsAt: isoDate.optional(),
  redemptionEndsAt: isoDate.optional(),
  /** Ours: whether auto-renew is on (and set by the wallet that owns it). */
  autoRenew: z.boolean().optional(),
  /** Ours: auto-renew's last attempt could not be paid from the owner's credit (it tries again daily). */
  autoRenewShortOfCredit: z.boolean().optional(),
});
export type UserDomain = z.infer<typeof userDomain>;
export const userDomains = z.array(userDomain);

export const balance = z.object({
  balances: z.array(z.object({ chainId: z.number().int(), walletAddress: z.string(), balanceInUsdCents: z.number().int() })),
  totalBalanceInUsdCents: z.number().int(),
});
export type Balance = z.infer<typeof balance>;

export const faucetInput = z.object({ walletAddress: address.optional() });
export const faucetResult = z.object({
  status: z.enum(['completed', 'started']),
  walletAddress: z.string(),
  nextEligibleAt: isoDate.nullable(),
});
export type FaucetResult = z.infer<typeof faucetResult>;

/** The doors a key comes through: the REST API, the MCP server, DNS UPDATE (RFC 2136, TSIG) and DynDNS2. */
const API_KEY_DOORS = ['rest', 'mcp', 'rfc2136', 'dyndns2'] as const;
export type ApiKeyDoor = (typeof API_KEY_DOORS)[number];
export const API_KEY_PATTERN = /^nfk_[A-Za-z0-9_-]{43}$/;
export const createApiKeyInput = z.object({
  label: displayText(z.string().trim().min(1, 'Give the key a label').max(100, 'At most 100 characters')),
  /** The key's limits (contract: Access); none: the old, unlimited key. */
  scope: apiKeyScope.optional(),
  /** Also make the key's TSIG form (contract: The standard doors), for DNS UPDATE and keyed transfers; needs a scope. */
  tsig: z.boolean().optional(),
});
/** The only TSIG algorithm the service signs and verifies with. */
export const TSIG_ALGORITHM = 'hmac-sha256';
/** A key's TSIG form as listed: its DNS name (with the trailing dot) and algorithm, never its secret. */
const tsigForm = z.object({ keyName: z.string(), algorithm: z.literal(TSIG_ALGORITHM) });
export const createdApiKey = z.object({
  id: z.string(),
  label: z.string(),
  key: z.string(),
  createdAt: isoDate,
  scope: apiKeyScope.nullable().optional(),
  /** Shown once, like the key: `secret` is 32 random bytes in base64. */
  tsig: tsigForm.extend({ secret: z.string() }).optional(),
});
export type CreatedApiKey = z.infer<typeof createdApiKey>;
const apiKeySummary = z.object({
  id: z.string(),
  label: z.string(),
  prefix: z.string(),
  createdAt: isoDate,
  lastUsedAt: isoDate.nullable(),
  /** The door the key last came through (null: never used). */
  lastUsedVia: z.enum(API_KEY_DOORS).nullable(),
  /** null: an old, unlimited key. */
  scope: apiKeyScope.nullable(),
  /** The key's TSIG form, if it has one (never its secret). */
  tsig: tsigForm.nullable(),
});
export type ApiKeySummary = z.infer<typeof apiKeySummary>;
export const apiKeyList = z.array(apiKeySummary);
