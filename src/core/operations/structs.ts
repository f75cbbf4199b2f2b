import type { TypeRegistry } from '../wire/eip712.ts';
import { f } from './define.ts';

/**
 * EIP-712 structs more than one operation's struct nests, and the one the registry publishes that no operation
 * accepts (`ZoneSelect`, production's, kept so a client finds every type it knows). Each operation's own structs
 * live in its declaration.
 */
export const PUBLISHED_ONLY: TypeRegistry = {
  ZoneSelect: [f('zoneName', 'string')],
};

export const sharedStructs = {
  CreateZoneRecord: [f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256')],
  NftReceivingWallet: [f('walletAddress', 'string'), f('chainId', 'uint256')],
} satisfies TypeRegistry;
