import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOf, TEST_KEYS } from '../../test/support/client.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { startPostgres, type PostgresServer } from '../../test/support/postgres-server.ts';
import { startAnvil } from '../chain/anvil.ts';
import { domainRegistryAbi } from '../chain/contracts.ts';

/**
 * Release, exactly once across instances: two services on one PostgreSQL database and one chain, both following the
 * test clock; each released domain is burned once (one DomainReleased event) and deleted once.
 */
const DAY_S = 86_400;
let postgres: PostgresServer;
let anvil: Awaited<ReturnType<typeof startAnvil>>;
let a: TestService;
let b: TestService;

beforeAll(async () => {
  postgres = await startPostgres();
  anvil = await startAnvil();
  const env = { DATABASE_URL: postgres.url, CHAIN: 'anvil', CHAIN_RPC_URL: anvil.rpcUrl, DEV_CONTROLS: 'true' };
  a = await startTestService(env);
  b = await startTestService(env);
}, 240_000);
afterAll(async () => {
  await a?.destroy();
  await b?.destroy();
  await anvil?.stop();
  await postgres?.stop();
});

describe('release across instances', () => {
  it('burns and deletes each released domain once, whichever instance gets there', async () => {
    const names = ['twice-a.com', 'twice-b.com', 'twice-c.com'];
    for (const [i, name] of names.entries()) await (i % 2 ? b : a).services.ownership.mint({ name, to: addressOf(TEST_KEYS[0]), chainId: 31337, years: 1, now: a.services.now() });
    const from = await a.chain!.clients.public.getBlockNumber({ cacheTime: 0 });
    const response = await fetch(`${a.baseUrl}/dev/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: 366 * DAY_S + 61 * DAY_S }) });
    expect(response.status).toBe(200);
    // Both instances look (b on its next round, with a's clock): every name ends released, whoever released it.
    await expect.poll(async () => (await b.services.db.query('SELECT 1 FROM domains WHERE name = ANY($1)', [names])).length, { timeout: 20_000 }).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 6000)); // b's next round, to show it does nothing more
    const released = await a.chain!.clients.public.getContractEvents({ address: a.chain!.deployment.registry, abi: domainRegistryAbi, eventName: 'DomainReleased', fromBlock: from });
    expect(released.map((e) => (e.args as { name: string }).name).sort()).toEqual([...names].sort());
    for (const name of names) expect(await b.services.ownership.ownerOf(name)).toBeNull();
  }, 120_000);
});
