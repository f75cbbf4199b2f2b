import { createTestClient, getAddress, http, parseEther, type Address, type LocalAccount } from 'viem';
import { tokenIdOf } from '../../server/ownership/ownership.ts';
import type { ChainClients } from '../../server/chain/client.ts';
import { domainRegistryAbi } from '../../server/chain/contracts.ts';
import type { Deployment } from '../../server/chain/deploy.ts';

/** Gives `address` ETH for gas on anvil (anvil_setBalance): test wallets are random keys with nothing. */
export async function fundOnAnvil(clients: ChainClients, address: Address, ether = '10'): Promise<void> {
  const rpcUrl = clients.chain.rpcUrls.default.http[0];
  const testClient = createTestClient({ mode: 'anvil', chain: clients.chain, transport: http(rpcUrl) });
  await testClient.setBalance({ address, value: parseEther(ether) });
}

/**
 * The holder of a domain's NFT sends it to `to` (as a wallet would): afterwards the new holder may edit the
 * domain's DNS and the old one may not. `holder` pays the gas: fund it first.
 */
export async function transferDomain(
  clients: ChainClients,
  deployment: Pick<Deployment, 'registry'>,
  input: { holder: LocalAccount; to: Address; name: string },
): Promise<void> {
  const hash = await clients.wallet.writeContract({
    account: input.holder,
    address: deployment.registry,
    abi: domainRegistryAbi,
    functionName: 'safeTransferFrom',
    args: [input.holder.address, getAddress(input.to), BigInt(tokenIdOf(input.name))],
  });
  const receipt = await clients.receipt(hash);
  if (receipt.status !== 'success') throw new Error(`transfer of ${input.name} reverted`);
}
