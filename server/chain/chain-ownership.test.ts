import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { domainRegistryAbi } from './contracts.ts';
import { transferDomain } from '../../test/chain/dev-actions.ts';
import { startTestChain, type TestChain } from '../../test/chain/testing.ts';
import { deployContracts } from './deploy.ts';
import { chainOwnership, restoreMissingMints } from './chain-ownership.ts';
import { databaseOwnership } from '../ownership/database-ownership.ts';
import { tokenIdOf } from '../ownership/ownership.ts';

let chain: TestChain;
let db: Database;
beforeAll(async () => {
  [chain, db] = await Promise.all([startTestChain(), openDatabase({ dataDir: 'memory://' })]);
  await migrate(db);
}, 180_000); // PGlite's first start compiles its WASM: seconds when idle, much longer on a busy machine.
afterAll(async () => {
  await chain?.close();
  await db?.close();
});

const wallet = async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.fund(account.address);
  return account;
};
const now = new Date('2026-11-22T10:00:00.000Z');

describe('chainOwnership', () => {
  it('mints on the chain and reads the owner, token id and expiry back from it', async () => {
    const ownership = chainOwnership(chain.clients, chain.deployment);
    const alice = await wallet();
    const minted = await ownership.mint({ name: 'chain-owned.com', to: alice.address, chainId: 31337, years: 2, now });
    const expected = {
      name: 'chain-owned.com',
      owner: alice.address.toLowerCase(),
      tokenId: tokenIdOf('chain-owned.com'),
      chainId: 31337,
      expiresAt: new Date('2028-11-22T10:00:00.000Z'),
    };
    expect(minted).toEqual(expected);
    expect(await ownership.ownerOf('chain-owned.com')).toEqual(expected);
    expect(await ownership.ownerOf('nobody-has-this.com')).toBeNull();
    expect(await ownership.domainsOf(alice.address)).toEqual([expected]);
  });

  it('follows a transfer of the NFT: the new holder owns the domain and lists it, the old one does not', async () => {
    const ownership = chainOwnership(chain.clients, chain.deployment);
    const alice = await wallet();
    const bob = await wallet();
    await ownership.mint({ name: 'moving.net', to: alice.address, chainId: 31337, years: 1, now });
    await ownership.mint({ name: 'staying.net', to: alice.address, chainId: 31337, years: 1, now });
    await transferDomain(chain.clients, chain.deployment, { holder: alice, to: bob.address, name: 'moving.net' });
    expect((await ownership.ownerOf('moving.net'))?.owner).toBe(bob.address.toLowerCase());
    expect((await ownership.domainsOf(alice.address)).map((d) => d.name)).toEqual(['staying.net']);
    expect((await ownership.domainsOf(bob.address.toLowerCase())).map((d) => [d.name, d.owner])).toEqual([['moving.net', bob.address.toLowerCase()]]);
  });

  it('lists a wallet’s domains sorted by name, like the database registry', async () => {
    const ownership = chainOwnership(chain.clients, chain.deployment);
    const carol = await wallet();
    for (const name of ['zeta.io', 'alpha.io', 'mid.io']) await ownership.mint({ name, to: carol.address, chainId: 31337, years: 1, now });
    expect((await ownership.domainsOf(carol.address)).map((d) => d.name)).toEqual(['alpha.io', 'mid.io', 'zeta.io']);
  });

  it('refuses to mint a name someone else holds, and treats a repeated mint to the same wallet as done', async () => {
    const ownership = chainOwnership(chain.clients, chain.deployment);
    const alice = await wallet();
    const bob = await wallet();
    const first = await ownership.mint({ name: 'once.dev', to: alice.address, chainId: 31337, years: 1, now });
    expect(await ownership.mint({ name: 'once.dev', to: alice.address, chainId: 31337, years: 1, now })).toEqual(first);
    await expect(ownership.mint({ name: 'once.dev', to: bob.address, chainId: 31337, years: 1, now })).rejects.toThrow(/AlreadyRegistered/);
    expect((await ownership.ownerOf('once.dev'))?.owner).toBe(alice.address.toLowerCase());
  });

  it('mirrors mints into the database registry inside the caller’s transaction; the chain keeps deciding ownership', async () => {
    const ownership = chainOwnership(chain.clients, chain.deployment, { mirror: databaseOwnership(db) });
    const alice = await wallet();
    const bob = await wallet();
    await db.transaction((tx) => ownership.mint({ name: 'mirrored.app', to: alice.address, chainId: 31337, years: 1, now }, tx));
    const [row] = await db.query<{ name: string; parked: boolean }>('SELECT name, parked FROM domains WHERE name = $1', ['mirrored.app']);
    expect(row).toEqual({ name: 'mirrored.app', parked: true });

    const hash = await chain.clients.wallet.writeContract({
      account: alice,
      address: chain.deployment.registry,
      abi: domainRegistryAbi,
      functionName: 'transferFrom',
      args: [alice.address, bob.address, BigInt(tokenIdOf('mirrored.app'))],
    });
    await chain.clients.public.waitForTransactionReceipt({ hash });
    expect((await ownership.ownerOf('mirrored.app'))?.owner).toBe(bob.address.toLowerCase());

    // The mirror refuses a name it already has, so nothing reaches the chain and the transaction rolls back.
    await expect(
      db.transaction((tx) => ownership.mint({ name: 'mirrored.app', to: alice.address, chainId: 31337, years: 1, now }, tx)),
    ).rejects.toThrow();
    expect((await ownership.ownerOf('mirrored.app'))?.owner).toBe(bob.address.toLowerCase());
  });

  it('restores, from the database registry, the mints a reset chain lost', async () => {
    const alice = await wallet();
    await databaseOwnership(db).mint({ name: 'only-in-db.org', to: alice.address, chainId: 31337, years: 3, now });
    // A fresh set of contracts stands for a chain that lost its state while the database kept its rows.
    const fresh = await deployContracts(chain.clients);
    const ownership = chainOwnership(chain.clients, fresh);
    expect(await ownership.ownerOf('only-in-db.org')).toBeNull();

    const restored = await restoreMissingMints(chain.clients, fresh, db);
    expect(restored).toContain('only-in-db.org');
    expect(await ownership.ownerOf('only-in-db.org')).toMatchObject({ owner: alice.address.toLowerCase(), expiresAt: new Date('2029-11-22T10:00:00.000Z') });
    expect(await restoreMissingMints(chain.clients, fresh, db)).toEqual([]);
  });

  /** The chain's clients, noting every name a start reads from the registry. */
  const counting = (names: string[]) => ({
    ...chain.clients,
    public: new Proxy(chain.clients.public, {
      get(target, key, receiver) {
        if (key !== 'readContract') return Reflect.get(target, key, receiver);
        return (call: Parameters<typeof target.readContract>[0]) => {
          if (call.functionName === 'domainByName') names.push(String(call.args?.[0]));
          return target.readContract(call);
        };
      },
    }),
  });
  // Anvil's own methods (snapshot, revert, mine), which viem's typed request does not list.
  const rpc = (method: string, params: unknown[] = []) =>
    (chain.clients.public.request as (args: { method: string; params: unknown[] }) => Promise<unknown>)({ method, params });

  it('a start after one that left the chain as it was reads only the domains written since, not every domain', async () => {
    const alice = await wallet();
    const fresh = await deployContracts(chain.clients);
    const ownership = chainOwnership(chain.clients, fresh, { mirror: databaseOwnership(db) });
    await db.transaction((tx) => ownership.mint({ name: 'noted-at-mint.org', to: alice.address, chainId: 31337, years: 1, now }, tx));
    const first: string[] = [];
    await restoreMissingMints(counting(first), fresh, db);
    expect(first, 'no mark yet: every domain is read').toContain('noted-at-mint.org');

    // Written after the mark: one through the chain (its block noted), one the chain never saw (no block noted).
    await db.transaction((tx) => ownership.mint({ name: 'minted-since.org', to: alice.address, chainId: 31337, years: 1, now }, tx));
    await databaseOwnership(db).mint({ name: 'never-on-chain.org', to: alice.address, chainId: 31337, years: 1, now });
    const second: string[] = [];
    expect(await restoreMissingMints(counting(second), fresh, db)).toEqual(['never-on-chain.org']);
    expect(second.sort()).toEqual(['minted-since.org', 'never-on-chain.org']);
    expect(await ownership.ownerOf('never-on-chain.org')).toMatchObject({ owner: alice.address.toLowerCase() });

    const third: string[] = [];
    expect(await restoreMissingMints(counting(third), fresh, db)).toEqual([]);
    expect(third, 'nothing written since the last start: nothing read').toEqual([]);
  });

  it('a chain that lost the blocks after the mark (its state saved before them) is compared in full, and what it lost is minted again', async () => {
    const alice = await wallet();
    const fresh = await deployContracts(chain.clients);
    const ownership = chainOwnership(chain.clients, fresh, { mirror: databaseOwnership(db) });
    const saved = await rpc('evm_snapshot');
    await db.transaction((tx) => ownership.mint({ name: 'lost-with-the-tail.org', to: alice.address, chainId: 31337, years: 2, now }, tx));
    await restoreMissingMints(chain.clients, fresh, db);
    // The chain goes back to before the mint and the mark, then mines past the mark's height with other blocks.
    await rpc('evm_revert', [saved]);
    await rpc('anvil_mine', ['0x10']);
    expect(await ownership.ownerOf('lost-with-the-tail.org')).toBeNull();

    const read: string[] = [];
    const restored = await restoreMissingMints(counting(read), fresh, db);
    expect(restored).toContain('lost-with-the-tail.org');
    expect(read.length, 'every domain is read').toBe(Number((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM domains'))[0].n));
    expect(await ownership.ownerOf('lost-with-the-tail.org')).toMatchObject({ owner: alice.address.toLowerCase(), expiresAt: new Date('2028-11-22T10:00:00.000Z') });
  });
});
