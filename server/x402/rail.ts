import { x402Facilitator } from '@x402/core/facilitator';
import { x402ResourceServer } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/server';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { getAddress, type Address, type Hex } from 'viem';
import type { ChainClients } from '../chain/client.ts';
import { usdLedger, type UsdLedger } from '../chain/usd-token.ts';
import { gasCapped } from '../chain/verify.ts';

/** x402 on the local chain: the USD token, the treasury that is paid, and the service as its own facilitator. */
export interface X402Rail {
  network: Network;
  chainId: number;
  asset: Address;
  /** The treasury: the service's own account, which also pays refunds back. */
  payTo: Address;
  usd: UsdLedger;
  resourceServer: x402ResourceServer;
}

/**
 * The facilitator signs and sends `transferWithAuthorization` with the service's account, through the same
 * one-at-a-time queue as every other write of the service, so the two never race for a nonce.
 */
function facilitatorSigner(clients: ChainClients): FacilitatorEvmSigner {
  const account = clients.wallet.account.address;
  // A payer that is a deployed contract is asked through ERC-1271: its code runs under the same gas cap as any account's.
  const capped = gasCapped(clients.public);
  return {
    getAddresses: () => [account],
    readContract: (args) => clients.public.readContract(args as Parameters<typeof clients.public.readContract>[0]),
    verifyTypedData: (args) => capped.verifyTypedData(args as Parameters<typeof capped.verifyTypedData>[0]),
    writeContract: async (args) =>
      (await clients.write((w) => w.writeContract(args as Parameters<typeof w.writeContract>[0]))).transactionHash,
    sendTransaction: async (args) => (await clients.write((w) => w.sendTransaction({ to: args.to, data: args.data }))).transactionHash,
    waitForTransactionReceipt: (args) => clients.receipt(args.hash as Hex, args.timeout),
    getCode: (args) => clients.public.getCode(args),
  };
}

export async function createX402Rail(clients: ChainClients, usdToken: Address): Promise<X402Rail> {
  const network = `eip155:${clients.chain.id}` as Network;
  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer: facilitatorSigner(clients), networks: network });
  const resourceServer = new x402ResourceServer(facilitator as unknown as FacilitatorClient).register(network, new ExactEvmScheme());
  await resourceServer.initialize();
  return {
    network,
    chainId: clients.chain.id,
    asset: getAddress(usdToken),
    payTo: getAddress(clients.wallet.account.address),
    usd: usdLedger(clients, usdToken),
    resourceServer,
  };
}
