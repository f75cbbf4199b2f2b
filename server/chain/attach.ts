import { setContractSignatureVerifier } from '../auth/contract-signatures.ts';
import type { Services } from '../http/context.ts';
import { restoreMissingMints } from '../ownership/chain-ownership.ts';
import type { LocalChain } from './local-chain.ts';

/**
 * Puts a service on the chain: ownership is read from the NFT (the database registry it replaces keeps a mirror
 * row per domain for parking and availability), credit is the Credit ERC-20, contract-account signatures are
 * checked against the chain, and mints the chain lost since the database recorded them are restored. Call it
 * before the service serves or processes orders. Returns the names restored.
 */
export async function attachChain(services: Services, chain: LocalChain): Promise<string[]> {
  const database = services.ownership;
  services.ownership = chain.ownership({ mirror: database });
  services.credit = chain.credit;
  setContractSignatureVerifier(services, chain.signatures);
  return restoreMissingMints(chain.clients, chain.deployment, services.db);
}
