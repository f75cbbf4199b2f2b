import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { anvilBinary, startAnvil, type Anvil } from './anvil.ts';
import { chainClients } from './client.ts';
import { chainCredit } from './credit.ts';
import { deploymentFile, ensureDeployment, type Deployment } from './deploy.ts';
import { chainOwnership } from './chain-ownership.ts';

let dataDir: string;
let anvil: Anvil | undefined;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'namefi-deploy-'));
});
afterAll(async () => {
  await anvil?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('anvil binary', () => {
  it('resolves from the platform package, or from ANVIL_BIN', () => {
    expect(existsSync(anvilBinary())).toBe(true);
    expect(anvilBinary({ ANVIL_BIN: '/opt/anvil' })).toBe('/opt/anvil');
  });
});

describe('deployment and restarts', () => {
  it('deploys when missing, keeps chain and contracts across a restart, and redeploys when the code is gone', async () => {
    const alice = privateKeyToAccount(generatePrivateKey()).address;
    anvil = await startAnvil({ dataDir });
    expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    let clients = chainClients({ rpcUrl: anvil.rpcUrl });
    expect(await clients.public.getChainId()).toBe(31337);

    const first = await ensureDeployment(clients, { dataDir });
    expect(first.deployed).toBe(true);
    const recorded = JSON.parse(await readFile(deploymentFile(dataDir), 'utf8')) as Deployment;
    expect(recorded).toEqual(first.deployment);
    expect(await ensureDeployment(clients, { dataDir })).toEqual({ deployment: first.deployment, deployed: false });

    await chainCredit(clients, first.deployment).grantCents(alice, 10_000);
    await chainOwnership(clients, first.deployment).mint({ name: 'persist.com', to: alice, chainId: 31337, years: 1, now: new Date() });

    await anvil.stop();
    expect(existsSync(join(dataDir, 'chain', 'state.json'))).toBe(true);
    anvil = await startAnvil({ dataDir });
    clients = chainClients({ rpcUrl: anvil.rpcUrl });
    expect(await ensureDeployment(clients, { dataDir })).toEqual({ deployment: first.deployment, deployed: false });
    expect(await chainCredit(clients, first.deployment).balanceCents(alice)).toBe(10_000);
    expect((await chainOwnership(clients, first.deployment).ownerOf('persist.com'))?.owner).toBe(alice.toLowerCase());

    // A chain that lost its state (the file deleted) gets fresh contracts and a new record.
    await anvil.stop();
    await rm(join(dataDir, 'chain', 'state.json'));
    anvil = await startAnvil({ dataDir });
    clients = chainClients({ rpcUrl: anvil.rpcUrl });
    const again = await ensureDeployment(clients, { dataDir });
    expect(again.deployed).toBe(true);
    expect(await chainOwnership(clients, again.deployment).ownerOf('persist.com')).toBeNull();
    expect(JSON.parse(await readFile(deploymentFile(dataDir), 'utf8'))).toEqual(again.deployment);
  }, 60_000);

  it('keeps what was saved before a crash (SIGKILL): the service saves the state every CHAIN_STATE_INTERVAL_S', async () => {
    const crashDir = await mkdtemp(join(tmpdir(), 'namefi-crash-'));
    try {
      const node = await startAnvil({ dataDir: crashDir, stateIntervalS: 1 });
      const clients = chainClients({ rpcUrl: node.rpcUrl });
      const { deployment } = await ensureDeployment(clients, { dataDir: crashDir });
      const alice = privateKeyToAccount(generatePrivateKey()).address;
      await chainCredit(clients, deployment).grantCents(alice, 4200);
      const granted = Date.now();
      // A save that started after the grant, then the crash.
      const statePath = join(crashDir, 'chain', 'state.json');
      const written = async () => (existsSync(statePath) ? (await stat(statePath)).mtimeMs : 0);
      await expect.poll(written, { timeout: 10_000, interval: 100 }).toBeGreaterThan(granted + 50);
      process.kill(node.pid, 'SIGKILL');
      await node.stop();
      const restarted = await startAnvil({ dataDir: crashDir });
      try {
        expect(restarted.stateOnStart).toBe('loaded');
        const after = chainClients({ rpcUrl: restarted.rpcUrl });
        expect((await ensureDeployment(after, { dataDir: crashDir })).deployed).toBe(false);
        expect(await chainCredit(after, deployment).balanceCents(alice)).toBe(4200);
      } finally {
        await restarted.stop();
      }
    } finally {
      await rm(crashDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('sets a damaged state file aside and starts a new chain instead of failing', async () => {
    const damagedDir = await mkdtemp(join(tmpdir(), 'namefi-damaged-'));
    const warnings: string[] = [];
    try {
      const statePath = join(damagedDir, 'chain', 'state.json');
      for (const [content, reason] of [['', /empty/], ['{"accounts": {"0x', /not valid JSON/], ['{"accounts": 7}', /not an anvil state/]] as const) {
        await rm(join(damagedDir, 'chain'), { recursive: true, force: true });
        await mkdir(join(damagedDir, 'chain'), { recursive: true });
        await writeFile(statePath, content);
        const node = await startAnvil({ dataDir: damagedDir, warn: (m) => warnings.push(m) });
        try {
          expect(node.stateOnStart).toBe('damaged');
          expect(warnings.at(-1)).toMatch(reason);
          expect(await chainClients({ rpcUrl: node.rpcUrl }).public.getBlockNumber()).toBe(0n);
          const aside = (await readdir(join(damagedDir, 'chain'))).filter((n) => n.startsWith('state.json.damaged-'));
          expect(aside).toHaveLength(1);
          expect(await readFile(join(damagedDir, 'chain', aside[0]), 'utf8')).toBe(content);
        } finally {
          await node.stop();
        }
        // The stop saved a whole state, which the next start loads.
        const again = await startAnvil({ dataDir: damagedDir });
        expect(again.stateOnStart).toBe('loaded');
        await again.stop();
      }
    } finally {
      await rm(damagedDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('redeploys over a damaged deployment record', async () => {
    anvil ??= await startAnvil({ dataDir });
    const clients = chainClients({ rpcUrl: anvil.rpcUrl });
    await writeFile(deploymentFile(dataDir), '{"chainId": 31337, "registry": "not an address"');
    const result = await ensureDeployment(clients, { dataDir });
    expect(result.deployed).toBe(true);
    expect(await clients.public.getCode({ address: result.deployment.registry })).toMatch(/^0x[0-9a-f]{100,}/);
  });

  it('stops cleanly twice and reports a clear error when anvil cannot start', async () => {
    const spare = await startAnvil();
    await spare.stop();
    await spare.stop();
    await expect(startAnvil({ port: anvil!.port })).rejects.toThrow(/^CHAIN_PORT \d+ on 127\.0\.0\.1 is taken by another process/);
  });
});
