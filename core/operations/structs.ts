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

/**
 * A record's comment and tags (ours, issue 36), the last fields of the local service's record structs
 * (CreateTypedDnsRecord, UpdateTypedDnsRecord, CreateZoneRecord, UpdateZoneRecord). A payload that carries neither
 * anywhere is signed under the structs without them (signedTypes in ../eip712/envelope.ts): what a client signed
 * before they existed, or one that keeps no notes, still verifies; it leaves a new record without notes and an updated
 * one with its stored notes.
 */
export const NOTE_FIELDS = [f('comment', 'string'), f('tags', 'string[]')];

export const sharedStructs = {
  CreateZoneRecord: [f('name', 'string'), f('type', 'string'), f('rdata', 'string'), f('ttl', 'uint256'), ...NOTE_FIELDS],
  NftReceivingWallet: [f('walletAddress', 'string'), f('chainId', 'uint256')],
} satisfies TypeRegistry;
