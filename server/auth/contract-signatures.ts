import type { Hex } from 'viem';

/**
 * Asks a contract account whether it accepts a signature (ERC-1271 `isValidSignature`, ERC-6492 for an account
 * not yet deployed, an EIP-7702 delegated EOA likewise). Needs a chain: `Services.contractSignatures` is `null`
 * while none is configured.
 */
export interface ContractSignatureVerifier {
  /**
   * `hash` is the EIP-712 / EIP-191 digest the signature signs. `beforeChainCall` runs before each call to the chain
   * and may throw to stop it (a spent budget): the error is passed on, not taken for a refusal.
   */
  isValidSignature(input: { account: string; hash: Hex; signature: Hex; chainId?: number; beforeChainCall?: () => void }): Promise<boolean>;
}

export const NO_CHAIN_MESSAGE = 'could not be verified: no chain configured for contract accounts';
export const TIMED_OUT_MESSAGE = 'could not be verified in time: try again';

/** The chain did not answer a contract account's signature check within the time a request is given. */
export class SignatureCheckTimeout extends Error {}

/**
 * The verifier as one request may use it: every chain call is first charged to the request's client (`spend` throws a
 * 429 when its budget has no room, before the call), and the whole check is abandoned after `timeoutMs`, so attacker
 * supplied accounts and factories can neither be run for free nor hold a request open.
 */
export function budgetedVerifier(verifier: ContractSignatureVerifier, options: { spend: () => void; timeoutMs: number }): ContractSignatureVerifier {
  return {
    isValidSignature(input) {
      const check = verifier.isValidSignature({
        ...input,
        beforeChainCall: () => {
          input.beforeChainCall?.();
          options.spend();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, fail) => {
        timer = setTimeout(() => fail(new SignatureCheckTimeout(`no answer from the chain within ${options.timeoutMs} ms`)), options.timeoutMs);
      });
      return Promise.race([check, deadline]).finally(() => clearTimeout(timer));
    },
  };
}
