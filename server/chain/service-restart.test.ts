import { afterAll, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { transferDomain } from '../../test/chain/dev-actions.ts';

// Anvil's dev accounts 1 and 2 (account 0 is the service's own): they have ETH for gas on a new chain.
const [aliceKey, bobKey] = [TEST_KEYS[1], TEST_KEYS[2]];
const alice = privateKeyToAccount(aliceKey);
const bob = privateKeyToAccount(bobKey);
let service: TestService | undefined;
afterAll(() => service?.destroy());

async function snapshot(client: TestClient) {
  const as = async (key: Hex) => client.withToken(await client.signIn(key));
  const domains = async (key: Hex) =>
    (await client.call('getUserDomains', { headers: await as(key) })).body.map((d: { normalizedDomainName: string; ownerAddress: string; expirationDate: string }) => [
      d.normalizedDomainName,
      d.ownerAddress,
      d.expirationDate,
    ]);
  const balance = async (key: Hex) => (await client.call('getBalance', { headers: await as(key) })).body.totalBalanceInUsdCents;
  const records = async (zoneName: string) =>
    (await client.call('getDnsRecords', { query: { zoneName } })).body.map((r: { name: string; type: string; rdata: string }) => [r.name, r.type, r.rdata]);
  return {
    domains: { alice: await domains(aliceKey), bob: await domains(bobKey) },
    balances: { alice: await balance(aliceKey), bob: await balance(bobKey) },
    records: { kept: await records('kept-on-chain.com'), moved: await records('moved-on-chain.net') },
  };
}

it('keeps domains, holders, balances and records consistent when the service and its anvil restart', { timeout: 240_000 }, async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  let client = testClient(service);
  await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(aliceKey)) });
  for (const name of ['kept-on-chain.com', 'moved-on-chain.net']) expect((await registerAndWait(client, aliceKey, name)).order.status).toBe('SUCCEEDED');
  const record = await client.signed(aliceKey, 'createDnsRecord', { zoneName: 'kept-on-chain.com', name: 'www', type: 'A', rdata: '192.0.2.7', ttl: 300 });
  expect(record.status).toBe(200);
  // Moved on the chain only, just before the stop: the service's database never hears of it.
  await transferDomain(service.chain!.clients, service.chain!.deployment, { holder: alice, to: bob.address, name: 'moved-on-chain.net' });
  const before = await snapshot(client);
  expect(before.domains.bob.map((d: string[]) => d[0])).toEqual(['moved-on-chain.net']);
  expect(before.balances).toEqual({ alice: 10_000 - 1250 - 1400, bob: 0 });
  expect(before.records.kept).toContainEqual(['www', 'A', '192.0.2.7']);
  const deployment = service.chain!.deployment;

  service = await service.restart({ CHAIN: 'anvil' });
  client = testClient(service);
  expect(service.chain!.deployed).toBe(false);
  expect(service.chain!.deployment).toEqual(deployment);
  expect(await snapshot(client)).toEqual(before);
  const edit = (key: Hex) => client.signed(key, 'createDnsRecord', { zoneName: 'moved-on-chain.net', name: '@', type: 'TXT', rdata: '"after restart"', ttl: 300 });
  expect((await edit(aliceKey)).status).toBe(403);
  expect((await edit(bobKey)).status).toBe(200);
});
