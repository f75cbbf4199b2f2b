import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hashMessage } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createServer } from 'node:net';
import { chainConfigShape } from './config.ts';
import { startLocalChain, type LocalChain } from './local-chain.ts';

const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

const dirs: string[] = [];
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'namefi-local-chain-'));
  dirs.push(dir);
  return dir;
};
let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain({ dataDir: await tempDir() });
});
afterAll(async () => {
  await chain?.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('chain settings', () => {
  it('default to no chain, and check the RPC URL', () => {
    const schema = z.object(chainConfigShape);
    expect(schema.parse({})).toEqual({ CHAIN: 'none', CHAIN_PORT: 0, CHAIN_STATE_INTERVAL_S: 2, CHAIN_FOLLOW_MS: 500 });
    expect(schema.parse({ CHAIN_PORT: '8545' }).CHAIN_PORT).toBe(8545);
    expect(schema.parse({ CHAIN: 'anvil', CHAIN_RPC_URL: 'http://127.0.0.1:8545' }).CHAIN_RPC_URL).toBe('http://127.0.0.1:8545');
    expect(schema.safeParse({ CHAIN: 'mainnet' }).success).toBe(false);
    expect(schema.safeParse({ CHAIN_RPC_URL: 'localhost' }).success).toBe(false);
    expect(schema.safeParse({ CHAIN_PORT: '70000' }).success).toBe(false);
  });
});

describe('startLocalChain', () => {
  it('starts anvil, deploys, and serves ownership, credit and signature checks from it', async () => {
    expect(chain.deployed).toBe(true);
    expect(chain.chainId).toBe(31337);
    const alice = privateKeyToAccount(generatePrivateKey());
    const ownership = chain.ownership();
    await ownership.mint({ name: 'wired.com', to: alice.address, chainId: 31337, years: 1, now: new Date() });
    expect((await ownership.ownerOf('wired.com'))?.owner).toBe(alice.address.toLowerCase());
    await chain.credit.grantCents(alice.address, 10_000);
    expect(await chain.credit.balanceCents(alice.address)).toBe(10_000);
    const message = 'Sign in';
    expect(await chain.signatures.isValidSignature({ account: alice.address, hash: hashMessage(message), signature: await alice.signMessage({ message }) })).toBe(true);
  });

  it('starts anvil on the port asked for', async () => {
    const port = await freePort();
    const fixed = await startLocalChain({ dataDir: await tempDir(), port });
    try {
      expect(fixed.rpcUrl).toBe(`http://127.0.0.1:${port}`);
      expect(await fixed.clients.public.getChainId()).toBe(31337);
    } finally {
      await fixed.stop();
    }
  });

  it('connects to a running node given by URL, reusing its contracts, and leaves it running when stopped', async () => {
    const dataDir = await tempDir();
    const other = await startLocalChain({ dataDir, rpcUrl: chain.rpcUrl });
    expect(other.deployed).toBe(true);
    expect(other.chainId).toBe(31337);
    await other.stop();
    expect(await chain.clients.public.getChainId()).toBe(31337);
    const again = await startLocalChain({ dataDir, rpcUrl: chain.rpcUrl });
    expect(again.deployed).toBe(false);
    expect(again.deployment).toEqual(other.deployment);
  });
});
