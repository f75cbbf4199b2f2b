import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';
import { registerAndWait } from '../../test/support/orders.ts';
import { deploySmartAccount, setAccountSigner } from '../../test/chain/accounts.ts';
import { fundOnAnvil, transferDomain } from '../../test/chain/dev-actions.ts';
import type { LocalChain } from './local-chain.ts';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { signingDomain } from '../auth/signing-domain.ts';


// The service's own chain account is anvil's account 0; these wallets are anvil's accounts 1 and 2.
const aliceKey = TEST_KEYS[1];
const bobKey = TEST_KEYS[2];
const alice = privateKeyToAccount(aliceKey);
const bob = privateKeyToAccount(bobKey);
const now = new Date();

let service: TestService;
let chain: LocalChain;
let client: TestClient;
beforeAll(async () => {
  service = await startTestService({ CHAIN: 'anvil' });
  chain = service.chain!;
  client = testClient(service);
}, 180_000); // PGlite's first start is slow on a busy machine.
afterAll(() => service?.destroy());

let host = 0;
/** A new A record each time, so that no write is refused as a duplicate. */
const createRecord = (key: Hex, zoneName: string, headers: Record<string, string> = {}) =>
  client.signed(key, 'createDnsRecord', { zoneName, name: 'www', type: 'A', rdata: `192.0.2.${++host}`, ttl: 3600 }, { headers });

describe('a service on the chain', () => {
  it('moves the right to edit DNS with the NFT, and lists the domain for its new holder', async () => {
    await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(aliceKey)) });
    expect((await registerAndWait(client, aliceKey, 'handover.com')).order.status).toBe('SUCCEEDED');
    expect((await createRecord(aliceKey, 'handover.com')).status).toBe(200);
    expect((await createRecord(bobKey, 'handover.com')).status).toBe(403);

    await transferDomain(chain.clients, chain.deployment, { holder: alice, to: bob.address, name: 'handover.com' });
    expect((await createRecord(aliceKey, 'handover.com')).status).toBe(403);
    const bobs = await createRecord(bobKey, 'handover.com');
    expect(bobs.status).toBe(200);

    const domainsOf = async (key: Hex) => {
      const domains = await client.call('getUserDomains', { headers: client.withToken(await client.signIn(key)) });
      expect(domains.status).toBe(200);
      return domains.body.map((d: { normalizedDomainName: string; ownerAddress: string }) => [d.normalizedDomainName, d.ownerAddress]);
    };
    expect(await domainsOf(bobKey)).toEqual([['handover.com', bob.address.toLowerCase()]]);
    expect(await domainsOf(aliceKey)).toEqual([]);
  });

  it('lets the owner and approved signers of a smart account act for it with the delegated header; refuses others', async () => {
    const account = await deploySmartAccount(chain.clients, chain.deployment, alice.address, `0x${'42'.repeat(32)}`);
    await service.services.ownership.mint({ name: 'by-account.io', to: account, chainId: 31337, years: 1, now });
    const delegated = { [client.headers.erc1271Account]: account };
    expect((await createRecord(aliceKey, 'by-account.io', delegated)).status).toBe(200);
    const refused = await createRecord(bobKey, 'by-account.io', delegated);
    expect(refused.status).toBe(401);

    await fundOnAnvil(chain.clients, alice.address);
    await setAccountSigner(chain.clients, { owner: alice, account, signer: bob.address, approved: true });
    expect((await createRecord(bobKey, 'by-account.io', { [client.headers.eip7702Account]: account })).status).toBe(200);
  });

  it('spends a nonce for the key that signed, so a signature used as a smart account cannot be replayed as its owner', async () => {
    const account = await deploySmartAccount(chain.clients, chain.deployment, alice.address, `0x${'43'.repeat(32)}`);
    await service.services.ownership.mint({ name: 'replayed.io', to: account, chainId: 31337, years: 1, now });
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', { zoneName: 'replayed.io', name: '@', type: 'TXT', rdata: '"once"', ttl: 60 });
    const signature = await alice.signTypedData(envelopeTypedData(signingDomain(service.services.config), TYPE_REGISTRY, 'CreateDnsRecordEnvelope', envelope) as never);
    const send = (signer: string) =>
      client.call('createDnsRecord', {
        body: envelope,
        headers: { [client.headers.signer]: signer, [client.headers.signature]: signature, [client.headers.eip712Type]: 'CreateDnsRecordEnvelope' },
      });
    expect((await send(account)).status).toBe(200);
    const replay = await send(alice.address);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/nonce was already used/);
  });
});
