import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { deploySmartAccount, erc6492Signature, setAccountSigner, smartAccountAddress } from '../../test/chain/accounts.ts';
import { fundOnAnvil } from '../../test/chain/dev-actions.ts';
import { verifyHistoryEntry } from '#core/eip712/verify-history-entry.ts';
import { historyPage } from '#core/wire/history.ts';
import { historyPageJson } from '../history/history-read.ts';

// Signed writes from contract accounts through the whole service on anvil: the request as a smart-account
// wallet or a delegated signer sends it, the envelope checked by the service's own auth and the account's code.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const chain = () => service.chain!;
const newKey = () => {
  const key = generatePrivateKey();
  return { key, account: privateKeyToAccount(key) };
};
let zones = 0;
async function zoneOwnedBy(owner: Address): Promise<string> {
  const name = `contract-owned-${++zones}-${Date.now().toString(36)}.com`;
  await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  return name;
}
const record = (zoneName: string, rdata: string) => ({ zoneName, type: 'A', name: 'www', rdata, ttl: 300 });
const zoneHas = async (zoneName: string, rdata: string) =>
  ((await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ rdata: string }>).some((r) => r.rdata === rdata);

describe('signed writes from contract accounts', () => {
  it('an account not deployed yet writes with an ERC-6492 signature, and stays undeployed', async () => {
    const owner = newKey();
    const salt: Hex = `0x${'61'.repeat(32)}`;
    const account = await smartAccountAddress(chain().clients, chain().deployment, owner.account.address, salt);
    const zone = await zoneOwnedBy(account);
    const wrap = (signature: Hex) => erc6492Signature(chain().deployment, owner.account.address, signature, salt);

    const nonce = `0x${'61'.repeat(32)}`;
    const reply = await client.signed(owner.key, 'createDnsRecord', record(zone, '192.0.2.61'), { signer: account, wrapSignature: wrap, nonce });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.61')).toBe(true);
    expect(await chain().clients.public.getCode({ address: account })).toBeUndefined();

    // Another key's signature, wrapped the same way, is not the account's.
    const stranger = newKey();
    const forged = await client.signed(stranger.key, 'createDnsRecord', record(zone, '192.0.2.62'), { signer: account, wrapSignature: wrap });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toContain('did not accept the signature');
    expect(await zoneHas(zone, '192.0.2.62')).toBe(false);

    // Once the account exists its bare ERC-1271 signature is valid too, but the envelope was already spent wrapped.
    await deploySmartAccount(chain().clients, chain().deployment, owner.account.address, salt);
    const bare = await client.signed(owner.key, 'createDnsRecord', record(zone, '192.0.2.61'), { signer: account, nonce });
    expect(bare.status).toBe(401);
    expect(bare.body.message).toContain('nonce was already used');
  });

  it('a deployed account writes with its owner’s signature; the same envelope sent again is refused', async () => {
    const owner = newKey();
    const account = await deploySmartAccount(chain().clients, chain().deployment, owner.account.address, `0x${'62'.repeat(32)}`);
    const zone = await zoneOwnedBy(account);
    const nonce = `0x${'ab'.repeat(32)}`;
    const first = await client.signed(owner.key, 'createDnsRecord', record(zone, '192.0.2.63'), { signer: account, nonce });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const replay = await client.signed(owner.key, 'createDnsRecord', record(zone, '192.0.2.63'), { signer: account, nonce });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('nonce was already used');
  });

  it('an approved signer acts for the account with the delegated header; a signer it does not approve is a 401', async () => {
    const owner = newKey();
    const approved = newKey();
    const stranger = newKey();
    const account = await deploySmartAccount(chain().clients, chain().deployment, owner.account.address, `0x${'63'.repeat(32)}`);
    await fundOnAnvil(chain().clients, owner.account.address);
    await setAccountSigner(chain().clients, { owner: owner.account, account, signer: approved.account.address, approved: true });
    const zone = await zoneOwnedBy(account);
    const h = service.services.headers;

    for (const header of [h.erc1271Account, h.eip1271Account]) {
      const rdata = header === h.erc1271Account ? '192.0.2.64' : '192.0.2.65';
      const reply = await client.signed(approved.key, 'createDnsRecord', record(zone, rdata), { headers: { [header]: account } });
      expect(reply.status, `${header}: ${JSON.stringify(reply.body)}`).toBe(200);
      expect(await zoneHas(zone, rdata)).toBe(true);
    }
    const refused = await client.signed(stranger.key, 'createDnsRecord', record(zone, '192.0.2.66'), { headers: { [h.erc1271Account]: account } });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe(`The delegated account ${account} did not accept the signature`);
    // Without the header the approved signer is only itself, and does not own the domain.
    const asItself = await client.signed(approved.key, 'createDnsRecord', record(zone, '192.0.2.67'));
    expect(asItself.status).toBe(403);
    expect(asItself.body.data.owner.toLowerCase()).toBe(account.toLowerCase());
  });

  it('their writes are kept in the history, which verifies through the chain (ERC-1271, ERC-6492) and not without it', async () => {
    const owner = newKey();
    const approved = newKey();
    const salt: Hex = `0x${'64'.repeat(32)}`;
    const account = await smartAccountAddress(chain().clients, chain().deployment, owner.account.address, salt);
    const zone = await zoneOwnedBy(account);
    const wrap = (signature: Hex) => erc6492Signature(chain().deployment, owner.account.address, signature, salt);
    expect((await client.signed(owner.key, 'createDnsRecord', record(zone, '192.0.2.71'), { signer: account, wrapSignature: wrap })).status).toBe(200);
    await deploySmartAccount(chain().clients, chain().deployment, owner.account.address, salt);
    await fundOnAnvil(chain().clients, owner.account.address);
    await setAccountSigner(chain().clients, { owner: owner.account, account, signer: approved.account.address, approved: true });
    const delegated = { [service.services.headers.erc1271Account]: account };
    expect((await client.signed(approved.key, 'createDnsRecord', { ...record(zone, '192.0.2.72'), name: 'mail' }, { headers: delegated })).status).toBe(200);

    const { entries } = historyPage.parse(JSON.parse(await historyPageJson(service.services.db, zone, { limit: 10 })));
    const [byDelegate, byAccount] = entries;
    expect(byAccount.actor).toEqual({ wallet: account.toLowerCase(), account: null, via: 'eip712' });
    expect(byDelegate.actor).toEqual({ wallet: approved.account.address.toLowerCase(), account: account.toLowerCase(), via: 'eip712' });
    const ask = service.services.contractSignatures!.isValidSignature;
    for (const entry of entries) {
      expect(await verifyHistoryEntry(entry)).toMatchObject({ status: 'needs-erc1271', account: account.toLowerCase() });
      expect(await verifyHistoryEntry(entry, ask)).toMatchObject({ status: 'valid', account: entry === byDelegate ? account.toLowerCase() : null });
    }
    // The account refuses a signature over an edited envelope.
    const edited = structuredClone(byAccount);
    (edited.signed!.envelope.payload as Record<string, unknown>).ttl = 60;
    edited.changes[0].after!.ttl = 60;
    const refused = await verifyHistoryEntry(edited, ask);
    expect(refused.status === 'invalid' && refused.problems).toEqual([`the account ${account.toLowerCase()} does not accept the signature (ERC-1271)`]);

    // The offline verifier: without a chain it says what it needs; with the chain's RPC URL it verifies both.
    const file = join(service.dataDir, 'contract-history.ndjson');
    await writeFile(file, [...entries].reverse().map((e) => JSON.stringify(e)).join('\n'));
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/verify-history.ts', ...args]).then(
        (r) => r.stdout,
        (e: { stdout: string }) => e.stdout,
      );
    expect(await run([file])).toContain('2 entries: 0 verified, 0 failed, 2 need a chain (ERC-1271), 0 unsigned');
    const online = await run([file, '--rpc', chain().rpcUrl]);
    expect(online).toContain('2 entries: 2 verified, 0 failed, 0 need a chain (ERC-1271), 0 unsigned');
    expect(online).toContain(`for ${account.toLowerCase()} (accepted by the account through ERC-1271)`);
  });
});
