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
});
