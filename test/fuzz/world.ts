import { expect } from 'vitest';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { signingDomain } from '#core/wire/eip712.ts';
import type { TestService } from '../support/test-service.ts';
import { addressOf, TEST_KEYS, testClient } from '../support/client.ts';
import { deploySmartAccount, smartAccountAddress } from '../chain/accounts.ts';
import { USD_EIP712 } from '../../server/chain/usd-token.ts';
import { PAYMENT_REQUIRED } from '../../server/x402/headers.ts';
import { digestQuery } from './database-digest.ts';
import type { ChainWorld, World } from './operation-cases.ts';

const [OWNER_KEY, PAYER_KEY] = TEST_KEYS;
const ZONE = 'fuzz-zone.com';
const FREE_NAME = 'fuzz-free.com';
/** An address with no code and no key of the tests'. */
const NO_CODE = '0x000000000000000000000000000000000000dEaD';

/**
 * What the fuzz starts from: a zone the owner holds (unparked, one record), a SIWE session and an API key; with a
 * chain, the owner's smart account (deployed, holding a zone of its own) and a counterfactual one, and a funded payer.
 */
export async function setUpWorld(service: TestService): Promise<World> {
  const client = testClient(service);
  const owner = addressOf(OWNER_KEY);
  await service.services.ownership.mint({ name: ZONE, to: owner, chainId: 31337, years: 1, now: new Date() });
  const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });
  expect(unpark.status).toBe(200);
  const record = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, type: 'TXT', name: 'keep', rdata: '"kept"', ttl: 300 });
  expect(record.status).toBe(200);
  const siweToken = await client.signIn(OWNER_KEY);
  const key = await client.call('createApiKey', { body: { label: 'fuzz' }, headers: client.withToken(siweToken) });
  expect(key.status).toBe(200);
  const domain = signingDomain.parse((await client.call('getEip712Domain')).body);
  const chain = service.chain ? await setUpChain(service, client) : undefined;
  return {
    service,
    client,
    ownerKey: OWNER_KEY,
    owner,
    domain,
    zone: ZONE,
    freeName: FREE_NAME,
    siweToken,
    apiKey: key.body.key,
    recordId: record.body.id,
    keyId: key.body.id,
    digestSql: await digestQuery(service.services.db),
    chain,
  };
}

async function setUpChain(service: TestService, client: ReturnType<typeof testClient>): Promise<ChainWorld> {
  const chain = service.chain!;
  const owner = addressOf(OWNER_KEY);
  const account = await deploySmartAccount(chain.clients, chain.deployment, owner, `0x${'f1'.repeat(32)}`);
  const counterfactualSalt = `0x${'f2'.repeat(32)}` as const;
  const counterfactual = await smartAccountAddress(chain.clients, chain.deployment, owner, counterfactualSalt);
  const accountZone = 'fuzz-account-zone.com';
  await service.services.ownership.mint({ name: accountZone, to: account, chainId: 31337, years: 1, now: new Date() });
  const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: accountZone, enableParking: false, overrideExistingRecords: false }, { signer: account });
  expect(unpark.status, JSON.stringify(unpark.body)).toBe(200);

  // The payer's USD comes from the faucet, as a wallet's would; the 402 of a free .com name is what it accepts.
  const payer = addressOf(PAYER_KEY);
  for (let i = 0; i < 2; i += 1) expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(await client.signIn(PAYER_KEY)) })).status).toBe(200);
  const ask = await fetch(`${service.baseUrl}/x402/domain/fuzz-x402-ask.com`);
  expect(ask.status).toBe(402);
  const accepted = decodePaymentRequiredHeader(ask.headers.get(PAYMENT_REQUIRED)!).accepts[0] as unknown as Record<string, unknown>;
  const usdToken = chain.deployment.usdToken!;
  const { registry, credit, accountFactory, accountImplementation } = chain.deployment;
  return {
    account,
    accountZone,
    counterfactual,
    counterfactualSalt,
    factory: accountFactory,
    addresses: [account, counterfactual, accountFactory, accountImplementation, registry, credit, usdToken, owner, NO_CODE, `0x${'0'.repeat(40)}`],
    x402: {
      accepted,
      payerKey: PAYER_KEY,
      payer,
      usdDomain: { ...USD_EIP712, chainId: chain.chainId, verifyingContract: usdToken },
      freeNames: Array.from({ length: 6 }, (_, i) => `fuzz-x402-${i}.com`),
    },
  };
}
