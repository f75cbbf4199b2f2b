import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil, type Anvil } from './anvil.ts';
import { chainClients } from './client.ts';

let dataDir: string;
let anvil: Anvil;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-chain-client-'));
  anvil = await startAnvil({ dataDir });
});
afterAll(async () => {
  await anvil?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the service's chain writes", () => {
  it('are mined when the node leaves them in its pool (anvil#10122): a block is mined for them, and nothing is sent twice', async () => {
    const clients = chainClients({ rpcUrl: anvil.rpcUrl });
    const rpc = clients.public.request as unknown as (args: { method: string; params?: unknown[] }) => Promise<unknown>;
    const to = privateKeyToAccount(generatePrivateKey()).address;
    const nonceBefore = await clients.public.getTransactionCount({ address: clients.wallet.account.address });
    // The node stops mining on arrival, as anvil sometimes does for one transaction: it waits in the pool.
    await rpc({ method: 'evm_setAutomine', params: [false] });
    try {
      const started = Date.now();
      const receipt = await clients.write((wallet) => wallet.sendTransaction({ to, value: 1n }));
      expect(receipt.status).toBe('success');
      // Mined within a few seconds, not after viem's three minutes.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await clients.public.getBalance({ address: to })).toBe(1n);
      expect(await clients.public.getTransactionCount({ address: clients.wallet.account.address })).toBe(nonceBefore + 1);
    } finally {
      await rpc({ method: 'evm_setAutomine', params: [true] });
    }
  }, 60_000);
});
