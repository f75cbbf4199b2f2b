import { getAddress, isAddress, isHex, type Chain, type Hex, type PublicClient, type Transport } from 'viem';
import type { ContractSignatureVerifier } from '../auth/contract-signatures.ts';
import { explicitErc7739Signature } from './erc7739.ts';

/**
 * Whether an account accepts a signature, asked of the chain through viem's universal verification (EOA recovery,
 * ERC-1271, ERC-6492); the local chain stands in for every chain id. It answers a boolean: malformed input, a
 * reverting account or a chain error are all `false`.
 */
export function chainSignatures(client: PublicClient<Transport, Chain>): ContractSignatureVerifier {
  const wellFormed = (address: string, signature: string): signature is Hex => isAddress(address, { strict: false }) && isHex(signature) && signature.length > 2;
  const verifyOnce = async (address: string, hash: Hex, signature: string) => {
    try {
      return wellFormed(address, signature) && isHex(hash) && (await client.verifyHash({ address: getAddress(address), hash, signature }));
    } catch {
      return false;
    }
  };
  return {
    // A refused ERC-7739 signature in viem's implicit form is asked once more in the explicit form (see erc7739.ts).
    async isValidSignature({ account, hash, signature }) {
      if (await verifyOnce(account, hash, signature)) return true;
      const explicit = isHex(signature) ? explicitErc7739Signature(signature) : null;
      return explicit !== null && (await verifyOnce(account, hash, explicit));
    },
  };
}
