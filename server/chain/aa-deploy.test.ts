import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTypedData, type TypedDataDefinition } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { loadConfig } from '../config.ts';
import { signingDomain } from '../auth/signing-domain.ts';

import { CREATE2_DEPLOYER, ensureAccountAbstraction, SIMPLE_7702_ACCOUNT } from './aa-deploy.ts';
import { delegateToSmartAccount } from '../../test/chain/accounts.ts';
import { readDeployment, deploymentFile } from './deploy.ts';
import { signatureChecks, startTestChain, type TestChain } from '../../test/chain/testing.ts';

let chain: TestChain;
beforeAll(async () => {
  chain = await startTestChain();
});
afterAll(() => chain?.close());

const typedData = () =>
  envelopeTypedData(
    // The domain a local service signs under by default: these tests ask the contracts, not a service.
    signingDomain(loadConfig({})),
    TYPE_REGISTRY,
    'CreateTypedDnsRecordEnvelope',
    buildEnvelope('CreateTypedDnsRecordEnvelope', { zoneName: 'example.com', name: '@', type: 'A', rdata: '192.0.2.1', ttl: 3600 }),
  ) as unknown as TypedDataDefinition;

describe('account-abstraction contracts on the local chain', () => {
  it('deploys Simple7702Account from the npm bytecode at its canonical address, once, and records it', async () => {
    expect(SIMPLE_7702_ACCOUNT).toBe('0xe6Cae83BdE06E4c305530e199D7217f42808555B');
    const first = await ensureAccountAbstraction(chain.clients, chain.deployment, chain.dataDir);
    expect(first.simple7702Account).toBe(SIMPLE_7702_ACCOUNT);
    expect(await chain.clients.public.getCode({ address: SIMPLE_7702_ACCOUNT })).toMatch(/^0x[0-9a-f]{200,}$/);
    expect((await readDeployment(deploymentFile(chain.dataDir)))?.simple7702Account).toBe(SIMPLE_7702_ACCOUNT);

    // A restart finds it there and sends nothing.
    const nonce = await chain.clients.public.getTransactionCount({ address: chain.clients.wallet.account.address });
    expect(await ensureAccountAbstraction(chain.clients, first, chain.dataDir)).toEqual(first);
    expect(await chain.clients.public.getTransactionCount({ address: chain.clients.wallet.account.address })).toBe(nonce);
  });

  it('puts the deterministic deployer in place on a node that lacks it', async () => {
    await chain.clients.public.request({ method: 'anvil_setCode' as never, params: [CREATE2_DEPLOYER, '0x'] as never });
    // As if never deployed: no code, and nonce 0 (CREATE2 refuses an address whose nonce is not).
    await chain.clients.public.request({ method: 'anvil_setCode' as never, params: [SIMPLE_7702_ACCOUNT, '0x'] as never });
    await chain.clients.public.request({ method: 'anvil_setNonce' as never, params: [SIMPLE_7702_ACCOUNT, '0x0'] as never });
    const again = await ensureAccountAbstraction(chain.clients, chain.deployment);
    expect(again.simple7702Account).toBe(SIMPLE_7702_ACCOUNT);
    expect(await chain.clients.public.getCode({ address: SIMPLE_7702_ACCOUNT })).toMatch(/^0x[0-9a-f]{200,}$/);
  });

  it('an EOA delegated to it is accepted for its own signatures through ERC-1271 and the delegated-account check, and no one else', async () => {
    const eoa = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    await delegateToSmartAccount(chain.clients, { accountImplementation: SIMPLE_7702_ACCOUNT }, eoa);
    expect((await chain.clients.public.getCode({ address: eoa.address }))?.toLowerCase()).toBe(`0xef0100${SIMPLE_7702_ACCOUNT.slice(2).toLowerCase()}`);

    const verify = signatureChecks(chain.clients.public);
    const typed = typedData();
    const own = await eoa.signTypedData(typed as never);
    const theirs = await stranger.signTypedData(typed as never);
    expect(await verify.isValidSignature({ account: eoa.address, hash: hashTypedData(typed), signature: own })).toBe(true);
    expect(await verify.isValidSignature({ account: eoa.address, hash: hashTypedData(typed), signature: theirs })).toBe(false);
    expect(await verify.verifyDelegatedAccount({ account: eoa.address, signer: eoa.address, typedData: typed, signature: own })).toBe(true);
    expect(await verify.verifyDelegatedAccount({ account: eoa.address, signer: stranger.address, typedData: typed, signature: theirs })).toBe(false);
  });
});
