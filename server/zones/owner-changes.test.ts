import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { fundOnAnvil, transferDomain } from '../../test/chain/dev-actions.ts';
import { callTool, createApiKey, httpMcpClient } from '../../test/support/mcp.ts';
import { domainRegistryAbi } from '../chain/contracts.ts';

/**
 * One owner for every read, and every owner change through the transfer command (issue 47): on the local chain, a
 * domain sent to another wallet is answered alike by the wallet's domain list, getAutoRenew, the grantee's shared
 * domains and MCP from the block that moved it, before the follower has written the move; and an owner the chain
 * answers with no transfer log (a token the chain lost and was given to another wallet) is written by the transfer
 * command when the service reads the chain after a start: its entry, grants ended, auto-renew off.
 */
// The follower reads the chain once at the start, then only when the test asks (sync).
const ENV = { CHAIN: 'anvil', CHAIN_FOLLOW_MS: '60000' };
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService(ENV);
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const wallet = () => {
  const key = generatePrivateKey();
  return { key, account: privateKeyToAccount(key), address: privateKeyToAccount(key).address.toLowerCase() };
};
const session = async (key: Hex) => client.withToken(await client.signIn(key));
const listed = async (key: Hex, zoneName: string) =>
  ((await client.call('getUserDomains', { headers: await session(key) })).body as Array<{ normalizedDomainName: string; autoRenew: boolean }>).find((d) => d.normalizedDomainName === zoneName);
const autoRenewOf = async (zoneName: string) => (await client.call('getAutoRenew', { query: { normalizedDomainName: zoneName } })).body.enabled as boolean;
const sharedWith = async (key: Hex) => ((await client.call('getSharedDomains', { headers: await session(key) })).body as Array<{ normalizedDomainName: string }>).map((d) => d.normalizedDomainName);
const transfersOf = async (key: Hex, zoneName: string) =>
  ((await client.call('getZoneHistory', { query: { zoneName }, headers: await session(key) })).body.entries as Array<{ operation: string; actor: Record<string, unknown>; transfer?: unknown }>).filter((e) => e.operation === 'transfer');

/** A registered domain of `owner`'s with an editor grant to `grantee` and auto-renew on. */
async function sharedDomain(owner: ReturnType<typeof wallet>, grantee: ReturnType<typeof wallet>, label: string): Promise<string> {
  const zoneName = `${label}-${Date.now().toString(36)}.com`;
  await client.call('requestFaucet', { body: {}, headers: await session(owner.key) });
  expect((await registerAndWait(client, owner.key, zoneName)).order.status).toBe('SUCCEEDED');
  const grant = { zoneName, grantee: grantee.address, role: 'editor', names: ['www'], types: ['A'], expiresAt: Math.floor(Date.now() / 1000) + 7 * 86400 };
  expect((await client.signed(owner.key, 'grantZoneAccess', grant)).status).toBe(200);
  expect((await client.signed(owner.key, 'setAutoRenew', { normalizedDomainName: zoneName, enabled: true, durationInYears: 1 })).status).toBe(200);
  expect(await listed(owner.key, zoneName)).toMatchObject({ autoRenew: true });
  expect(await sharedWith(grantee.key)).toContain(zoneName);
  return zoneName;
}

describe('the owner of a domain, read from one place', () => {
  it('after a transfer on the chain, before the follower writes it: the list, getAutoRenew, shared domains and MCP agree', async () => {
    const [alice, bob, carol] = [wallet(), wallet(), wallet()];
    const zoneName = await sharedDomain(alice, carol, 'sent');
    await fundOnAnvil(service.chain!.clients, alice.account.address);
    await transferDomain(service.chain!.clients, service.chain!.deployment, { holder: alice.account, to: bob.account.address, name: zoneName });

    // The follower is asleep: nothing has written the move yet, and every read already answers Bob as the owner.
    expect(await transfersOf(bob.key, zoneName)).toEqual([]);
    expect(await autoRenewOf(zoneName)).toBe(false);
    expect(await listed(bob.key, zoneName)).toMatchObject({ autoRenew: false });
    const agent = await httpMcpClient(service.baseUrl, (await createApiKey(client, bob.key)).key);
    try {
      const mine = (await callTool(agent, 'list_my_domains', {})).structured as { domains: Array<{ normalizedDomainName: string; autoRenew: boolean }> };
      expect(mine.domains.find((d) => d.normalizedDomainName === zoneName)).toMatchObject({ autoRenew: false });
      expect((await callTool(agent, 'get_domain', { domain: zoneName })).structured).toMatchObject({ autoRenew: { enabled: false } });
    } finally {
      await agent.close();
    }
    // Carol's grant was Alice's to give: the list of shared domains says what a write finds.
    expect(await sharedWith(carol.key)).not.toContain(zoneName);
    const write = await client.signed(carol.key, 'createDnsRecord', { zoneName, name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 });
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/no longer owns it/);

    // Once written: one entry, and the reads answer as before.
    await service.transfers!.sync();
    expect(await transfersOf(bob.key, zoneName)).toEqual([expect.objectContaining({ transfer: expect.objectContaining({ from: alice.address, to: bob.address }) })]);
    expect(await listed(bob.key, zoneName)).toMatchObject({ autoRenew: false });
    expect(await autoRenewOf(zoneName)).toBe(false);
  }, 120_000);

  it('an owner the chain answers with no transfer log is written by the transfer command at the next start', async () => {
    const [alice, bob, carol] = [wallet(), wallet(), wallet()];
    const zoneName = await sharedDomain(alice, carol, 'reminted');
    // The chain lost the token and another tool minted it to Bob: a burn and a mint, neither a transfer the follower reads.
    const { clients, deployment } = service.chain!;
    const [, , expiry] = await clients.public.readContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'domainByName', args: [zoneName] });
    await clients.write((w) => w.writeContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'burn', args: [zoneName] }));
    await clients.write((w) => w.writeContract({ address: deployment.registry, abi: domainRegistryAbi, functionName: 'mint', args: [bob.account.address, zoneName, expiry] }));

    service = await service.restart(ENV);
    client = testClient(service);
    // The follower's first read of the chain after the start has compared every domain's owner with the chain.
    await service.transfers!.sync();
    const [entry] = await transfersOf(bob.key, zoneName);
    expect(entry).toMatchObject({ actor: { via: 'chain' }, transfer: { from: alice.address, to: bob.address } });
    const grants = (await client.call('listZoneAccess', { query: { zoneName }, headers: await session(bob.key) })).body as Array<{ grantee: string; revokedAt: string | null }>;
    expect(grants).toEqual([expect.objectContaining({ grantee: carol.address, revokedAt: expect.any(String) })]);
    const [row] = await service.services.db.query<{ enabled: boolean; owner_address: string }>(
      'SELECT a.enabled, d.owner_address FROM auto_renew a JOIN domains d ON d.name = a.domain_name WHERE a.domain_name = $1',
      [zoneName],
    );
    expect(row).toEqual({ enabled: false, owner_address: bob.address });
    expect(await listed(bob.key, zoneName)).toMatchObject({ autoRenew: false });
    expect(await listed(alice.key, zoneName)).toBeUndefined();
    // Recorded once: another read of the chain writes nothing more.
    await service.transfers!.sync();
    expect(await transfersOf(bob.key, zoneName)).toHaveLength(1);
  }, 180_000);
});
