import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { hashMessage, type Address, type Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { deploySafe, safeAddress, signAsSafe, wrapForUndeployedSafe, type SafeConfig } from '../../test/chain/safe-accounts.ts';
import { ensureSafeContracts, SAFE_CANONICAL, safeAddressesAreCanonical, safeDeployment } from './safe-deploy.ts';

// Safe accounts through the whole service on anvil, signing as Safe{Wallet} does: owners sign the SafeMessage of
// the digest, the service asks the Safe (CompatibilityFallbackHandler's isValidSignature(bytes32,bytes)).
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const chain = () => service.chain!;
const owners = (n: number) => Array.from({ length: n }, () => privateKeyToAccount(generatePrivateKey()));
let salts = 0n;
const configOf = (accounts: PrivateKeyAccount[], threshold: number): SafeConfig => ({
  owners: accounts.map((a) => a.address),
  threshold,
  saltNonce: BigInt(Date.now()) * 1000n + ++salts,
});
const safeSigner = (safe: Address, signers: PrivateKeyAccount[], wrap?: (s: Hex) => Hex) => async (digest: Hex) => {
  const signature = await signAsSafe({ safe, chainId: 31337, hash: digest, owners: signers });
  return wrap ? wrap(signature) : signature;
};

let zones = 0;
async function zoneOwnedBy(owner: Address): Promise<string> {
  const name = `safe-owned-${++zones}-${Date.now().toString(36)}.com`;
  await service.services.ownership.mint({ name, to: owner, chainId: 31337, years: 1, now: new Date() });
  return name;
}
const record = (zoneName: string, rdata: string) => ({ zoneName, type: 'A', name: 'www', rdata, ttl: 300 });
const zoneHas = async (zoneName: string, rdata: string) =>
  ((await client.call('getDnsRecords', { query: { zoneName } })).body as Array<{ rdata: string }>).some((r) => r.rdata === rdata);

/** SIWE as a Safe: the owners sign the SafeMessage of the EIP-191 hash of the text. */
const signInAsSafe = (safe: Address, sign: (digest: Hex) => Promise<Hex>) => client.signInAs(safe, (text) => sign(hashMessage(text)));

describe('Safe 1.4.1 on the local chain', () => {
  it('is deployed from the npm artifacts at its canonical addresses', async () => {
    expect(safeAddressesAreCanonical()).toBe(true);
    const d = safeDeployment();
    expect(d).toMatchObject({ singleton: SAFE_CANONICAL.SafeL2, proxyFactory: SAFE_CANONICAL.SafeProxyFactory, fallbackHandler: SAFE_CANONICAL.CompatibilityFallbackHandler });
    for (const address of Object.values(SAFE_CANONICAL)) expect(await chain().clients.public.getCode({ address })).toMatch(/^0x[0-9a-f]{100,}/);
    // The next start (a chain that kept its state) finds them and sends nothing.
    expect((await ensureSafeContracts(chain().clients)).deployedNow).toEqual([]);
  });
});

describe('signed requests from Safes', () => {
  it('a 1-of-1 Safe signs in and writes; a stranger’s SafeMessage signature is refused', async () => {
    const [owner, stranger] = owners(2);
    const config = configOf([owner], 1);
    const safe = await deploySafe(chain().clients, config);
    expect(safe).toBe(safeAddress(config));

    const session = await signInAsSafe(safe, safeSigner(safe, [owner]));
    expect(session).toMatchObject({ valid: true });

    const zone = await zoneOwnedBy(safe);
    const reply = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.71'), { signer: safe, signDigest: safeSigner(safe, [owner]) });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.71')).toBe(true);

    const forged = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.72'), { signer: safe, signDigest: safeSigner(safe, [stranger]) });
    expect(forged.status).toBe(401);
    expect(forged.body.message).toContain('did not accept the signature');
    expect(await signInAsSafe(safe, safeSigner(safe, [stranger]))).toMatchObject({ valid: false });
  });

  it('a 2-of-3 Safe signs in and writes with two owners’ signatures (130 bytes); one owner alone is refused', async () => {
    const keys = owners(3);
    const config = configOf(keys, 2);
    const safe = await deploySafe(chain().clients, config);
    const two = safeSigner(safe, [keys[2], keys[0]]);
    expect((await two(`0x${'11'.repeat(32)}`)).length).toBe(2 + 2 * 130);

    expect(await signInAsSafe(safe, two)).toMatchObject({ valid: true });
    const zone = await zoneOwnedBy(safe);
    const nonce = `0x${'73'.repeat(32)}`;
    const reply = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.73'), { signer: safe, signDigest: two, nonce });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.73')).toBe(true);

    // The same envelope again: the nonce is spent for the Safe.
    const replay = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.73'), { signer: safe, signDigest: two, nonce });
    expect(replay.status).toBe(401);
    expect(replay.body.message).toContain('nonce was already used');

    // One owner is below the threshold, for writes as for sign-in.
    const one = safeSigner(safe, [keys[1]]);
    const alone = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.74'), { signer: safe, signDigest: one });
    expect(alone.status).toBe(401);
    expect(alone.body.message).toContain('did not accept the signature');
    expect(await zoneHas(zone, '192.0.2.74')).toBe(false);
    expect(await signInAsSafe(safe, one)).toMatchObject({ valid: false });
  });

  it('a 2-of-3 Safe not deployed yet signs in and writes through ERC-6492, and stays undeployed', async () => {
    const keys = owners(3);
    const config = configOf(keys, 2);
    const safe = safeAddress(config);
    const sign = safeSigner(safe, [keys[0], keys[1]], (s) => wrapForUndeployedSafe(config, s));
    expect(await chain().clients.public.getCode({ address: safe })).toBeUndefined();

    expect(await signInAsSafe(safe, sign)).toMatchObject({ valid: true });
    const zone = await zoneOwnedBy(safe);
    const reply = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.75'), { signer: safe, signDigest: sign });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(await zoneHas(zone, '192.0.2.75')).toBe(true);
    expect(await chain().clients.public.getCode({ address: safe }), 'verifying 6492 deploys nothing for real').toBeUndefined();

    // Wrapped signatures of a non-owner are refused just the same.
    const forged = safeSigner(safe, owners(2), (s) => wrapForUndeployedSafe(config, s));
    const refused = await client.signed(generatePrivateKey(), 'createDnsRecord', record(zone, '192.0.2.76'), { signer: safe, signDigest: forged });
    expect(refused.status).toBe(401);
  });
});
