import type { Hex } from 'viem';
import type { Services } from '../http/context.ts';

/**
 * Asks a contract account whether it accepts a signature (ERC-1271 `isValidSignature`, ERC-6492 for an account
 * not yet deployed, an EIP-7702 delegated EOA likewise). Needs a chain; `null` while none is configured.
 */
export interface ContractSignatureVerifier {
  /** `hash` is the EIP-712 / EIP-191 digest the signature signs. */
  isValidSignature(input: { account: string; hash: Hex; signature: Hex; chainId?: number }): Promise<boolean>;
}

export const NO_CHAIN_MESSAGE = 'could not be verified: no chain configured for contract accounts';

const verifiers = new WeakMap<Services, ContractSignatureVerifier>();

/** Plugs a chain-backed verifier into a running service (a later issue brings a local chain). */
export function setContractSignatureVerifier(services: Services, verifier: ContractSignatureVerifier | null): void {
  if (verifier) verifiers.set(services, verifier);
  else verifiers.delete(services);
}

export function contractSignatureVerifier(services: Services): ContractSignatureVerifier | null {
  return verifiers.get(services) ?? null;
}
