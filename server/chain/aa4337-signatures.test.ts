import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { parseErc6492Signature, serializeErc6492Signature, type Address, type Hex } from 'viem';
import { getEip712Domain } from 'viem/actions';
import { signMessage as signMessage7739, signTypedData as signTypedData7739 } from 'viem/experimental/erc7739';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { deploySoladyAccount, ownerSalt, soladyAccount, type SoladyAccount } from '../../test/chain/aa4337-accounts.ts';
import { ensureSoladyAccounts, soladyAddresses } from './aa4337-deploy.ts';
import { deploymentFile, readDeployment } from './deploy.ts';
import { explicitErc7739Signature } from './erc7739.ts';

// Solady's ERC-4337 account through the whole service on anvil, signing with viem's toSoladySmartAccount: the owner
// signs ERC-7739 nested typed data; the service asks the account (ERC-1271) or, undeployed, viem's ERC-6492 check.
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const chain = () => service.chain!;
const factory = () => chain().deployment.soladyAccountFactory!;
let labels = 0;
const label = () => `aa4337-${++labels}-${Date.now()}`;
/** `owner`'s account, a fresh one for each salt. */
const accountOf = (owner: PrivateKeyAccount, salt = ownerSalt(owner.address, label())) => soladyAccount(chain().clients, { owner, factory: factory(), salt });

let zones = 0;
async function zoneOwnedBy(owner: Address): Promise<string> {
  const name = `aa4337-owned-${++zones}-${Date.now().toString(36)}.com`;
  await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  return name;
}
const record = (zoneName: string, rdata: string) => ({ zoneName, type: 'A', name: 'www', rdata, ttl: 300 });
const zoneHas = async (zoneName: string, rdata: string) =>
  ((await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ rdata: string }>).some((r) => r.rdata === rdata);

/** SIWE as the account: the text signed through the account's `signMessage` (ERC-7739 PersonalSign). */
const signIn = (address: Address, signMessage: (message: string) => Promise<Hex>) => client.signInAs(address, signMessage);
/** A record write signed by the account (or by `signer`, claiming to be it), as the dashboard sends it. */
const writeAs = (account: SoladyAccount, zone: string, rdata: string, options: { signer?: SoladyAccount; nonce?: string } = {}) =>
  client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, rdata), {
    signer: account.address,
    nonce: options.nonce,
    signTypedData: (typed) => (options.signer ?? account).signTypedData(typed),
  });

describe('Solady ERC-4337 account on the local chain', () => {
  it('is deployed from the artifacts at its canonical addresses, recorded, and found again on the next start', async () => {
    const { soladyAccount: implementation, soladyAccountFactory } = soladyAddresses();
    expect(chain().deployment).toMatchObject({ soladyAccount: implementation, soladyAccountFactory });
    expect((await readDeployment(deploymentFile(service.dataDir)))?.soladyAccountFactory).toBe(soladyAccountFactory);
    const implementationOf = await chain().clients.public.readContract({
      address: soladyAccountFactory,
      abi: [{ type: 'function', name: 'implementation', inputs: [], outputs: [{ type: 'address' }], stateMutability: 'view' }],
      functionName: 'implementation',
    });
    expect(implementationOf).toBe(implementation);
    const before = await chain().clients.public.getBlockNumber();
    expect(await ensureSoladyAccounts(chain().clients, chain().deployment)).toBe(chain().deployment);
    expect(await chain().clients.public.getBlockNumber(), 'a restart sends nothing').toBe(before);
  });
});

describe('signed requests from Solady ERC-4337 accounts (ERC-7739 through ERC-1271, ERC-6492 undeployed)', () => {
  it('a deployed account signs in and writes; another owner’s signature for it is refused', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await accountOf(owner);
    await deploySoladyAccount(chain().clients, account);
    expect(await chain().clients.public.getCode({ address: account.address })).toMatch(/^0x[0-9a-f]+$/);

    expect(await signIn(account.address, (message) => account.signMessage({ message }))).toMatchObject({ valid: true });
    const zone = await zoneOwnedBy(account.address);
    const nonce = `0x${'91'.repeat(32)}`;
    const reply = await writeAs(account, zone, '192.0.2.91', { nonce });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.91')).toBe(true);

    // Why the service restates the description (erc7739.ts): the account itself refuses viem's implicit form of an
    // envelope, whose payload type sorts before the envelope's, and accepts the explicit form of the same signature.
    const typed = { domain: { name: 'App', version: '1' }, types: { Note: [{ name: 'text', type: 'string' }], NoteEnvelope: [{ name: 'note', type: 'Note' }] }, primaryType: 'NoteEnvelope', message: { note: { text: 'hi' } } } as const;
    const asSent = await account.signTypedData(typed);
    expect(await chain().clients.public.verifyTypedData({ address: account.address, signature: asSent, ...typed }).catch(() => false)).toBe(false);
    expect(await chain().clients.public.verifyTypedData({ address: account.address, signature: explicitErc7739Signature(asSent)!, ...typed })).toBe(true);

    // The same envelope again: the nonce is spent for the account.
    const replay = await writeAs(account, zone, '192.0.2.91', { nonce });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('nonce was already used');

    // A stranger's key signing the same nested typed data for this account's address.
    const stranger = await soladyAccount(chain().clients, { owner: privateKeyToAccount(generatePrivateKey()), factory: factory(), salt: '0x00', address: account.address });
    const forged = await writeAs(account, zone, '192.0.2.92', { signer: stranger });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toContain('did not accept the signature');
    expect(await zoneHas(zone, '192.0.2.92')).toBe(false);
    expect(await signIn(account.address, (message) => stranger.signMessage({ message }))).toMatchObject({ valid: false });
  });

  it('an account not deployed yet signs in and writes through ERC-6492, and stays undeployed; a stranger’s wrapped signature is refused', async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const salt = ownerSalt(owner.address, label());
    const account = await accountOf(owner, salt);
    expect(await chain().clients.public.getCode({ address: account.address })).toBeUndefined();
    const { factory: factoryAddress, factoryData } = await account.getFactoryArgs();
    expect(factoryAddress).toBe(factory());

    const siwe = await account.signMessage({ message: 'probe' });
    expect(parseErc6492Signature(siwe).address, 'signatures carry the factory call').toBe(factory());
    expect(await signIn(account.address, (message) => account.signMessage({ message }))).toMatchObject({ valid: true });
    const zone = await zoneOwnedBy(account.address);
    const reply = await writeAs(account, zone, '192.0.2.93');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.93')).toBe(true);
    expect(await chain().clients.public.getCode({ address: account.address }), 'verifying 6492 deploys nothing for real').toBeUndefined();

    // A stranger's key signs the very nested typed data the owner signs (the account's domain, as viem reads it
    // counterfactually), wrapped with the account's true factory call.
    const { domain } = await getEip712Domain(chain().clients.public, { address: account.address, factory: factoryAddress, factoryData });
    const strangerKey = privateKeyToAccount(generatePrivateKey());
    const wrap = (signature: Hex) => serializeErc6492Signature({ address: factory(), data: factoryData!, signature });
    const forged = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.94'), {
      signer: account.address,
      signTypedData: async (typed) => wrap(await signTypedData7739(chain().clients.public, { ...(typed as object), account: strangerKey, verifierDomain: domain } as never)),
    });
    expect(forged.status).toBe(401);
    expect(await zoneHas(zone, '192.0.2.94')).toBe(false);
    const strangerSiwe = async (message: string) => wrap(await signMessage7739(chain().clients.public, { message, account: strangerKey, verifierDomain: domain }));
    expect(await signIn(account.address, strangerSiwe)).toMatchObject({ valid: false });
  });
});
