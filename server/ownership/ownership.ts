import { hexToBigInt, keccak256, stringToBytes } from 'viem';
import type { Queryable } from '../db/database.ts';

/** A registered domain as its NFT describes it. Addresses are lowercase. */
export interface DomainToken {
  name: string;
  owner: string;
  tokenId: string;
  chainId: number;
  expiresAt: Date;
}

/**
 * Who owns a domain, and until when: the one source every read asks (routes, grants, keys, the auto-renew rule, MCP
 * through the operations), so ownership can move on-chain (an ERC-721 whose ownerOf decides) without touching them.
 * On a chain, the database's `domains.owner_address` is a mirror: only the transfer command (server/zones/transfers.ts)
 * moves it, and nothing reads it as the owner. `q` lets a caller run the call inside its own transaction.
 */
export interface Ownership {
  /** The ERC-721 contract that holds the domains' tokens, which a holder calls to send one; null for the database registry. */
  registry: { chainId: number; address: string } | null;
  ownerOf(name: string, q?: Queryable): Promise<DomainToken | null>;
  mint(input: { name: string; to: string; chainId: number; years: number; now: Date }, q?: Queryable): Promise<DomainToken>;
  domainsOf(wallet: string, q?: Queryable): Promise<DomainToken[]>;
  /**
   * Ends the domain after its redemption period: the token is burned (on a chain) and the registry's row deleted,
   * so the name is available again. Idempotent: a name already released is left as it is.
   */
  release(name: string, q?: Queryable): Promise<void>;
  /** Sets a registered domain's expiry (a paid renewal). Absolute, so a retry sets the same value again. */
  setExpiry(name: string, expiresAt: Date, q?: Queryable): Promise<void>;
}

/** The decimal uint256 of keccak256 of the name's UTF-8 bytes. */
export function tokenIdOf(name: string): string {
  return hexToBigInt(keccak256(stringToBytes(name))).toString();
}
