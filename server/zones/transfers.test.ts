import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { fundOnAnvil, transferDomain } from '../../test/chain/dev-actions.ts';
import { startTransferFollower } from './transfers.ts';

/**
 * The service follows the chain: a domain's token sent with another tool (here viem, as a wallet would) moves the
 * domain to its new holder at once, and the follower writes the zone's "transfer" entry and switches auto-renew off,
 * once, however many followers read the block.
 */
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  // The follower at its default pace (CHAIN_FOLLOW_MS 500), so that the times measured below are the service's own.
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const wallet = () => {
  const key = generatePrivateKey();
  return { key, account: privateKeyToAccount(key), address: privateKeyToAccount(key).address.toLowerCase() };
};
const session = async (key: Hex) => client.withToken(await client.signIn(key));
const entriesOf = async (key: Hex, zoneName: string) => (await client.call('getZoneHistory', { query: { zoneName }, headers: await session(key) })).body.entries as Array<Record<string, unknown>>;

describe('a domain sent to another wallet on the chain', () => {
  it('belongs to the receiver from its block; its history says so once; records stay and auto-renew is off', async () => {
    const chain = service.chain!;
    const [alice, bob, carol] = [wallet(), wallet(), wallet()];
    const zoneName = `sent-${Date.now().toString(36)}.com`;
    await client.call('requestFaucet', { body: {}, headers: await session(alice.key) });
    expect((await registerAndWait(client, alice.key, zoneName)).order.status).toBe('SUCCEEDED');
    const created = await client.signed(alice.key, 'createDnsRecord', { zoneName, name: 'www', type: 'A', rdata: '192.0.2.5', ttl: 300 });
    expect(created.status).toBe(200);
    expect((await client.signed(alice.key, 'setAutoRenew', { normalizedDomainName: zoneName, enabled: true, durationInYears: 1 })).status).toBe(200);

    const listed = await client.call('getUserDomains', { headers: await session(alice.key) });
    expect(listed.body[0].registry).toEqual({ chainId: chain.deployment.chainId, address: chain.deployment.registry });

    await fundOnAnvil(chain.clients, alice.account.address);
    const bobSession = await session(bob.key);
    await transferDomain(chain.clients, chain.deployment, { holder: alice.account, to: bob.account.address, name: zoneName });
    const mined = performance.now();
    // The receiver is answered as the owner at once: the service reads the token's holder from the chain.
    const domains = await client.call('getUserDomains', { headers: bobSession });
    const answered = performance.now() - mined;
    expect(domains.body.map((d: { normalizedDomainName: string }) => d.normalizedDomainName)).toEqual([zoneName]);
    // The follower writes the entry within a poll or so.
    const entry = await vi.waitFor(
      async () => {
        const history = await client.call('getZoneHistory', { query: { zoneName }, headers: bobSession });
        const found = (history.body.entries as Array<Record<string, unknown>>).find((e) => e.operation === 'transfer');
        if (!found) throw new Error('no transfer entry yet');
        return found;
      },
      { timeout: 10_000, interval: 10 },
    );
    const written = performance.now() - mined;
    console.info(`transfer: the new holder answered as the owner ${answered.toFixed(0)} ms after the transaction's receipt; its history entry readable after ${written.toFixed(0)} ms`);
    const edit = await client.signed(bob.key, 'createDnsRecord', { zoneName, name: 'bob', type: 'A', rdata: '192.0.2.6', ttl: 300 });
    expect(edit.status).toBe(200);
    expect((await client.signed(alice.key, 'createDnsRecord', { zoneName, name: 'alice', type: 'A', rdata: '192.0.2.7', ttl: 300 })).status).toBe(403);
    expect(entry).toMatchObject({ actor: { wallet: alice.address, account: null, via: 'chain' }, changes: [], transfer: { from: alice.address, to: bob.address } });
    const transfer = entry.transfer as { txHash: string; blockNumber: number };
    expect(transfer.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await chain.clients.public.getTransactionReceipt({ hash: transfer.txHash as Hex });
    expect(Number(receipt.blockNumber)).toBe(transfer.blockNumber);

    // Records stay; auto-renew is off (the old holder's setting would spend the new holder's credit).
    const records = (await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ name: string }>;
    expect(records.map((r) => r.name)).toContain('www');
    const autoRenew = await client.call('getAutoRenew', { query: { normalizedDomainName: zoneName } });
    expect(autoRenew.body.enabled).toBe(false);
    const [row] = await service.services.db.query<{ enabled: boolean; owner_address: string }>(
      'SELECT a.enabled, d.owner_address FROM auto_renew a JOIN domains d ON d.name = a.domain_name WHERE a.domain_name = $1',
      [zoneName],
    );
    expect(row).toEqual({ enabled: false, owner_address: bob.address });

    // Another follower (as a second instance would run) and this one reading every block again: nothing more.
    await fundOnAnvil(chain.clients, bob.account.address);
    await transferDomain(chain.clients, chain.deployment, { holder: bob.account, to: carol.account.address, name: zoneName });
    const second = startTransferFollower(service.services, { clients: chain.clients, registry: chain.deployment.registry, chainId: chain.deployment.chainId }, { pollMs: 60_000 });
    await service.services.db.query('UPDATE chain_follow_cursor SET last_block = 0');
    await Promise.all([second.sync(), service.transfers!.sync()]);
    await second.stop();
    const transfers = (await entriesOf(carol.key, zoneName)).filter((e) => e.operation === 'transfer').map((e) => e.transfer);
    expect(transfers).toEqual([expect.objectContaining({ from: bob.address, to: carol.address }), expect.objectContaining({ from: alice.address, to: bob.address })]);

    // A cursor ahead of the chain's head (a chain that lost its state, or a new one): read again from the start,
    // still nothing twice, and the cursor back at the head.
    await service.services.db.query('UPDATE chain_follow_cursor SET last_block = 1000000000');
    await service.transfers!.sync();
    expect((await entriesOf(carol.key, zoneName)).filter((e) => e.operation === 'transfer')).toHaveLength(2);
    const [cursor] = await service.services.db.query<{ last_block: string }>('SELECT last_block FROM chain_follow_cursor');
    expect(BigInt(cursor.last_block)).toBe(await chain.clients.public.getBlockNumber({ cacheTime: 0 }));
  }, 120_000); // Many chain transactions and signed requests: slow on a busy machine.
});
