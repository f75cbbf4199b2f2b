import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { hexToBigInt, keccak256, toBytes, toFunctionSelector, type Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { isTerminal } from '#core/wire/orders.ts';
import { finishOrder } from '../orders/processing.ts';
import { domainRegistryAbi } from './contracts.ts';
import { upgradeRegistryCode } from './registry-code.ts';

// A renewal on the local chain (CHAIN=anvil, as `npm start` runs it): the registry contract's own expiry and the
// database's move together, once, and a retried step leaves both where they are.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const chainExpiry = async (name: string) =>
  new Date(
    Number(
      await service.chain!.clients.public.readContract({
        address: service.chain!.deployment.registry,
        abi: domainRegistryAbi,
        functionName: 'expiresAt',
        args: [hexToBigInt(keccak256(toBytes(name)))],
      }),
    ) * 1000,
  ).toISOString();
const dbExpiry = async (name: string) => {
  const [row] = await service.services.db.query<{ expires_at: Date }>('SELECT expires_at FROM domains WHERE name = $1', [name]);
  return new Date(row.expires_at).toISOString();
};

it('moves the expiry on the chain and in the database in one step, once', { timeout: 120_000 }, async () => {
  const key: Hex = generatePrivateKey();
  const headers = client.withToken(await client.signIn(key));
  expect((await client.call('requestFaucet', { body: {}, headers })).status).toBe(200);
  await registerAndWait(client, key, 'renewed-on-chain.com');
  const before = await chainExpiry('renewed-on-chain.com');
  // The mint's mirror keeps milliseconds the chain's Unix seconds drop.
  expect(Math.floor(Date.parse(await dbExpiry('renewed-on-chain.com')) / 1000) * 1000).toBe(Date.parse(before));

  const created = await client.signed(key, 'renewDomain', { normalizedDomainName: 'renewed-on-chain.com', durationInYears: 2 });
  expect(created.status).toBe(200);
  const done = await vi.waitFor(
    async () => {
      const reply = await client.call('getOrder', { params: { orderId: created.body.id }, headers });
      if (!isTerminal(reply.body.order.status)) throw new Error(reply.body.order.status);
      return reply.body;
    },
    { timeout: 30_000, interval: 50 },
  );
  expect(done.order.status).toBe('SUCCEEDED');
  const expected = new Date(before);
  expected.setUTCFullYear(expected.getUTCFullYear() + 2);
  expect(await chainExpiry('renewed-on-chain.com')).toBe(expected.toISOString());
  expect(await dbExpiry('renewed-on-chain.com')).toBe(expected.toISOString());
  const balance = (await client.call('getBalance', { headers })).body.totalBalanceInUsdCents;
  await finishOrder(service.services, created.body.id);
  expect(await chainExpiry('renewed-on-chain.com')).toBe(expected.toISOString());
  expect((await client.call('getBalance', { headers })).body.totalBalanceInUsdCents).toBe(balance);

  // Only the service (the registry's owner) sets an expiry.
  await expect(
    service.chain!.clients.public.simulateContract({
      account: privateKeyToAccount(key),
      address: service.chain!.deployment.registry,
      abi: domainRegistryAbi,
      functionName: 'setExpiry',
      args: ['renewed-on-chain.com', 4_000_000_000n],
    }),
  ).rejects.toThrow();
});

it("gives a registry kept from before renewals today's code at start, its tokens and expiries intact", { timeout: 60_000 }, async () => {
  const key: Hex = generatePrivateKey();
  const headers = client.withToken(await client.signIn(key));
  expect((await client.call('requestFaucet', { body: {}, headers })).status).toBe(200);
  await registerAndWait(client, key, 'kept-from-before.com');
  const { clients, deployment } = service.chain!;
  const today = await clients.public.getCode({ address: deployment.registry });
  // The registry as an older data dir has it: the same storage, but no setExpiry to call (its selector unreachable).
  const selector = toFunctionSelector('setExpiry(string,uint64)').slice(2);
  const older = today!.replace(new RegExp(`63${selector}`, 'g'), '63deadbeef') as Hex;
  expect(older).not.toBe(today);
  await clients.public.request({ method: 'anvil_setCode' as never, params: [deployment.registry, older] as never });
  const setExpiry = () =>
    clients.public.simulateContract({ account: clients.wallet.account, address: deployment.registry, abi: domainRegistryAbi, functionName: 'setExpiry', args: ['kept-from-before.com', 4_000_000_000n] });
  await expect(setExpiry()).rejects.toThrow();

  expect(await upgradeRegistryCode(clients, deployment.registry)).toBe(true);
  expect(await clients.public.getCode({ address: deployment.registry })).toBe(today);
  await expect(setExpiry()).resolves.toBeTruthy();
  const tokenId = hexToBigInt(keccak256(toBytes('kept-from-before.com')));
  expect(await clients.public.readContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'ownerOf', args: [tokenId] })).toBe(privateKeyToAccount(key).address);
  expect(await chainExpiry('kept-from-before.com')).toBe(await dbExpiry('kept-from-before.com').then((iso) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString()));
  // Up to date already: nothing to do.
  expect(await upgradeRegistryCode(clients, deployment.registry)).toBe(false);
});
