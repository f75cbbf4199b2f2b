import type { Hex } from 'viem';

/**
 * Asks a contract account whether it accepts a signature (ERC-1271 `isValidSignature`, ERC-6492 for an account
 * not yet deployed, an EIP-7702 delegated EOA likewise). Needs a chain: `Services.contractSignatures` is `null`
 * while none is configured.
 */
export interface ContractSignatureVerifier {
  /** `hash` is the EIP-712 / EIP-191 digest the signature signs. */
  isValidSignature(input: { account: string; hash: Hex; signature: Hex; chainId?: number }): Promise<boolean>;
}

export const NO_CHAIN_MESSAGE = 'could not be verified: no chain configured for contract accounts';
