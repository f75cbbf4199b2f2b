import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getAddress, hexToBigInt, keccak256, toBytes, zeroAddress, type Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { insertOrder, registerAndWait } from '../../test/support/orders.ts';
import { startOrder } from '../orders/processing.ts';
import { findOrder } from '../orders/repository.ts';
import { creditAbi, domainRegistryAbi } from './contracts.ts';
import { orderRef } from './credit.ts';
import { fundOnAnvil } from '../../test/chain/dev-actions.ts';

// The service started with CHAIN=anvil, as `npm start` runs it: every balance and owner below is read back from
// the contracts themselves, not from the service.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000); // PGlite's first start is slow on a busy machine.
afterAll(() => service?.destroy());

const CENT = 10n ** 16n;
const chain = () => service.chain!;
const newWallet = () => {
  const key = generatePrivateKey();
  return { key, address: privateKeyToAccount(key).address };
};
const tokenBalance = (address: string) =>
  chain().clients.public.readContract({ address: chain().deployment.credit, abi: creditAbi, functionName: 'balanceOf', args: [getAddress(address)] });
const holderOf = (name: string) =>
  chain().clients.public.readContract({
    address: chain().deployment.registry,
    abi: domainRegistryAbi,
    functionName: 'ownerOf',
    args: [hexToBigInt(keccak256(toBytes(name)))],
  });
const session = async (key: Hex) => client.withToken(await client.signIn(key));
const balanceOf = async (key: Hex) => (await client.call('getBalance', { headers: await session(key) })).body.totalBalanceInUsdCents;

describe('the service on a local chain', () => {
  it('mints the faucet’s credit as the ERC-20, and the balance reads the token', async () => {
    const alice = newWallet();
    const headers = await session(alice.key);
    expect((await client.call('requestFaucet', { body: {}, headers })).status).toBe(200);
    expect(await tokenBalance(alice.address)).toBe(10_000n * CENT);
    expect(await balanceOf(alice.key)).toBe(10_000);
    // Credit moved on the chain behind the service's back shows at once.
    await fundOnAnvil(chain().clients, alice.address);
    const hash = await chain().clients.wallet.writeContract({
      account: privateKeyToAccount(alice.key),
      address: chain().deployment.credit,
      abi: creditAbi,
      functionName: 'transfer',
      args: [newWallet().address, 2_500n * CENT],
    });
    await chain().clients.public.waitForTransactionReceipt({ hash });
    expect(await balanceOf(alice.key)).toBe(7_500);
  });

  it('charges a registration in credit and mints the NFT to the receiving wallet, token id keccak256(name)', async () => {
    const alice = newWallet();
    const receiver = newWallet();
    await client.call('requestFaucet', { body: {}, headers: await session(alice.key) });
    const done = await registerAndWait(client, alice.key, 'minted-on-chain.com', {
      fields: { nftReceivingWallet: { walletAddress: receiver.address, chainId: 31337 } },
    });
    expect(done.order.status).toBe('SUCCEEDED');
    expect(await tokenBalance(alice.address)).toBe((10_000n - 1250n) * CENT);
    expect(await holderOf('minted-on-chain.com')).toBe(receiver.address);

    const domains = await client.call('getUserDomains', { headers: await session(receiver.key) });
    expect(domains.body).toEqual([
      expect.objectContaining({
        normalizedDomainName: 'minted-on-chain.com',
        ownerAddress: receiver.address.toLowerCase(),
        tokenId: hexToBigInt(keccak256(toBytes('minted-on-chain.com'))).toString(),
        chainId: 31337,
      }),
    ]);
    expect((await client.call('getUserDomains', { headers: await session(alice.key) })).body).toEqual([]);
  });

  it('refunds a failed registration on the chain', async () => {
    const alice = newWallet();
    await client.call('requestFaucet', { body: {}, headers: await session(alice.key) });
    const done = await registerAndWait(client, alice.key, 'fail-on-chain.org');
    expect(done.order.status).toBe('FAILED');
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 1100, status: 'REFUNDED' })]);
    const [payer, charged, refunded] = await chain().clients.public.readContract({
      address: chain().deployment.credit,
      abi: creditAbi,
      functionName: 'charges',
      args: [orderRef(done.order.id)],
    });
    expect([payer, charged, refunded]).toEqual([alice.address, 1100n * CENT, 1100n * CENT]);
    expect(await tokenBalance(alice.address)).toBe(10_000n * CENT);
    expect(await balanceOf(alice.key)).toBe(10_000);
  });

  it('completes an order whose NFT reached the chain on a try the database never recorded', async () => {
    const alice = newWallet();
    await client.call('requestFaucet', { body: {}, headers: await session(alice.key) });
    // The chain's own registry, without the database mirror: as a crash between the mint and the commit leaves it.
    await chain().ownership().mint({ name: 'minted-before-crash.io', to: alice.address, chainId: 31337, years: 1, now: new Date() });
    const done = await registerAndWait(client, alice.key, 'minted-before-crash.io');
    expect(done.order.status).toBe('SUCCEEDED');
    expect(done.payments).toEqual([expect.objectContaining({ amountInUSDCents: 4500, status: 'COMPLETED' })]);
    expect(await tokenBalance(alice.address)).toBe((10_000n - 4500n) * CENT);
    expect(await holderOf('minted-before-crash.io')).toBe(alice.address);
  });

  it('refuses an order the on-chain credit cannot pay with 402, and mints nothing', async () => {
    const alice = newWallet();
    const refused = await client.signed(alice.key, 'registerDomain', { normalizedDomainName: 'too-dear.ai', durationInYears: 1 });
    expect(refused.status).toBe(402);
    expect(refused.body.data).toMatchObject({ requiredInUsdCents: 6000, balanceInUsdCents: 0, missingInUsdCents: 6000 });
    await expect(holderOf('too-dear.ai')).rejects.toThrow();
  });

  it('fails an order whose wallet’s on-chain credit is gone when processing starts, charging nothing', async () => {
    const alice = newWallet();
    const id = await insertOrder(service.services.db, { wallet: alice.address, name: 'credit-gone.xyz', cents: 600 });
    await startOrder(service.services, id);
    const order = await findOrder(service.services.db, id);
    expect(order).toMatchObject({ status: 'FAILED', metadata: { failureDetails: 'The balance (0.00 USD) could not pay 6.00 USD' } });
    const [payer] = await chain().clients.public.readContract({ address: chain().deployment.credit, abi: creditAbi, functionName: 'charges', args: [orderRef(id)] });
    expect(payer).toBe(zeroAddress);
  });
});
