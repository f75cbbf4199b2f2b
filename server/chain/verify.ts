import { createPublicClient, custom, getAddress, isAddress, isHex, numberToHex, type Chain, type Hex, type PublicClient, type Transport } from 'viem';
import type { ContractSignatureVerifier } from '../auth/contract-signatures.ts';
import { explicitErc7739Signature } from './erc7739.ts';

/**
 * The gas one signature check may burn. A Safe deployed through its factory and then asked (the costliest account the
 * project knows) takes well under 1M; without a cap an eth_call gets the block's 30M, which an ERC-6492 factory chosen
 * by the sender could spend for free.
 */
const SIGNATURE_CHECK_GAS = 2_000_000n;

/**
 * Whether an account accepts a signature, asked of the chain through viem's universal verification (EOA recovery,
 * ERC-1271, ERC-6492); the local chain stands in for every chain id. It answers a boolean: malformed input, a
 * reverting account, one that runs out of gas, or a chain error are all `false`.
 */
export function chainSignatures(client: PublicClient<Transport, Chain>, options: { gas?: bigint } = {}): ContractSignatureVerifier {
  const capped = gasCapped(client, options.gas);
  const wellFormed = (address: string, signature: string): signature is Hex => isAddress(address, { strict: false }) && isHex(signature) && signature.length > 2;
  const verifyOnce = async (address: string, hash: Hex, signature: string) => {
    try {
      return wellFormed(address, signature) && isHex(hash) && (await capped.verifyHash({ address: getAddress(address), hash, signature }));
    } catch {
      return false;
    }
  };
  return {
    // A refused ERC-7739 signature in viem's implicit form is asked once more in the explicit form (see erc7739.ts).
    async isValidSignature({ account, hash, signature, beforeChainCall }) {
      beforeChainCall?.();
      if (await verifyOnce(account, hash, signature)) return true;
      const explicit = isHex(signature) ? explicitErc7739Signature(signature) : null;
      if (explicit === null) return false;
      beforeChainCall?.();
      return verifyOnce(account, hash, explicit);
    },
  };
}

/** The same node, with a gas cap on every eth_call (viem's verifyHash sets none): for any check that runs code a request chose. */
export function gasCapped(client: PublicClient<Transport, Chain>, gas = SIGNATURE_CHECK_GAS): PublicClient<Transport, Chain> {
  return createPublicClient({
    chain: client.chain,
    transport: custom(
      {
        request: ({ method, params }: { method: string; params?: unknown[] }) => {
          if (method !== 'eth_call' || !params?.length) return client.request({ method, params } as never);
          const [call, ...rest] = params as [Record<string, unknown>, ...unknown[]];
          return client.request({ method, params: [{ ...call, gas: numberToHex(gas) }, ...rest] } as never);
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient<Transport, Chain>;
}
