import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { concat, createPublicClient, custom, encodeFunctionData, hashTypedData, http, numberToHex, serializeErc6492Signature, size, stringToHex, type Address, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { buildEnvelope, envelopeTypedData } from '#core/eip712/envelope.ts';
import { TYPE_REGISTRY } from '#core/eip712/registry.ts';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, type TestClient } from '../../test/support/client.ts';
import { deploySmartAccount, smartAccountAddress } from '../../test/chain/accounts.ts';
import { smartAccountFactoryAbi } from './contracts.ts';
import { chainSignatures } from './verify.ts';

// Contract accounts' signatures are checked by chain calls running code the sender chose (the account, an ERC-6492
// factory): each call is charged to the client's budget before it is made, and each is bounded in gas and time.
const BUDGET = 9;
let service: TestService;
let client: TestClient;
beforeAll(async () => {
  // The test client sends from 127.0.0.1; trusting it as a proxy lets each test be a client of its own.
  service = await startTestService({ CHAIN: 'anvil', RATE_LIMIT_PER_MINUTE: String(BUDGET), TRUSTED_PROXIES: '127.0.0.1', CONTRACT_CALL_TIMEOUT_MS: '1500' });
  client = testClient(service);
}, 180_000);
afterAll(() => service?.destroy());

const chain = () => service.chain!;
const realVerifier = () => service.services.contractSignatures;
let original: ReturnType<typeof realVerifier>;
beforeAll(() => {
  original = realVerifier();
});
afterEach(() => {
  service.services.contractSignatures = original;
});

/** The service's own verifier, on a connection to anvil that counts the eth_calls it makes. */
function countChainCalls(): () => number {
  const real = chain().clients.public;
  let calls = 0;
  const counted = createPublicClient({
    chain: real.chain,
    transport: custom({
      request: ({ method, params }: { method: string; params?: unknown[] }) => {
        if (method === 'eth_call') calls += 1;
        return real.request({ method, params } as never);
      },
    }),
  });
  service.services.contractSignatures = chainSignatures(counted as never);
  return () => calls;
}

const newKey = () => privateKeyToAccount(generatePrivateKey());
let clients = 0;
const newClient = () => ({ 'x-forwarded-for': `198.51.100.${++clients}` });
const record = { zoneName: 'budget.com', type: 'A', name: 'www', rdata: '192.0.2.1', ttl: 300 };
let salts = 0;
const nextSalt = (): Hex => numberToHex(0xb0d6e7n * 1000n + BigInt(++salts), { size: 32 });

async function deployedAccount(): Promise<Address> {
  return deploySmartAccount(chain().clients, chain().deployment, newKey().address, nextSalt());
}

describe('contract-account signatures cost the client budget before the chain is asked', () => {
  it('a bad ERC-1271 signature costs a unit per chain call: with a budget of 9, the fifth is a 429 and the chain was asked four times', async () => {
    const account = await deployedAccount();
    const chainCalls = countChainCalls();
    const stranger = generatePrivateKey();
    const headers = newClient();
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await client.signed(stranger, 'createDnsRecord', record, { signer: account, headers }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 429, 429]);
    expect(answers[0].body.message).toContain('did not accept the signature');
    // The fifth was let in (its own unit) and refused before its chain call; the sixth at the door.
    expect(chainCalls()).toBe(4);
    expect(answers[4].body).toMatchObject({ defined: true, code: 'TOO_MANY_REQUESTS', status: 429 });
    expect(Number(answers[4].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[4].headers.get('ratelimit-remaining')).toBe('0');
    // Another client is not touched.
    expect((await client.signed(stranger, 'createDnsRecord', record, { signer: account, headers: newClient() })).status).toBe(401);
  });

  it('the ERC-7739 retry is a second call and costs a second unit, refused before it is made when the budget is spent', async () => {
    const account = await deployedAccount();
    const chainCalls = countChainCalls();
    const headers = newClient();
    expect((await client.call('getSiweAllowedChains', { headers })).status).toBe(200);
    // A refused signature shaped like viem's implicit ERC-7739 form is asked again in the explicit form.
    const description = stringToHex('Zed(A a)A(uint256 x)');
    const implicit7739 = (signature: Hex) => concat([signature, `0x${'aa'.repeat(32)}`, `0x${'bb'.repeat(32)}`, description, numberToHex(size(description), { size: 2 })]);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await client.signed(generatePrivateKey(), 'createDnsRecord', record, { signer: account, headers, wrapSignature: implicit7739 }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 429]);
    // 1 + (1 + 2) + (1 + 2) + (1 + 1, then refused before the retry): nine units, five calls.
    expect(chainCalls()).toBe(5);
  });

  it('a SIWE sign-in of a contract account is charged the same way', async () => {
    const account = await deployedAccount();
    const chainCalls = countChainCalls();
    const headers = newClient();
    const nonce = await client.call('getSiweNonce', { query: { signerAddress: account }, headers });
    const prepared = await client.call('prepareSiweMessage', { query: { signerAddress: account, nonce: nonce.body.nonce, chainId: 31337 }, headers });
    const signature = await newKey().signMessage({ message: prepared.body.messageString });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await client.call('verifySiwe', { body: { address: account, message: prepared.body.message, signature }, headers }));
    expect(answers.slice(0, 3).map((a) => [a.status, a.body.valid])).toEqual(Array(3).fill([200, false]));
    expect(answers[3].status).toBe(429);
    expect(chainCalls()).toBe(3);
  });
});

describe('contract-account signatures are bounded in gas and time', () => {
  it('an ERC-6492 factory that burns more gas than the cap is refused with a 401, though it would deploy a valid account', async () => {
    const ownerKey = generatePrivateKey();
    const owner = privateKeyToAccount(ownerKey);
    const salt = nextSalt();
    const account = await smartAccountAddress(chain().clients, chain().deployment, owner.address, salt);
    const burner = await gasBurningFactory(chain().deployment.accountFactory);
    const headers = newClient();
    const wrap = (signature: Hex) =>
      serializeErc6492Signature({
        address: burner,
        data: encodeFunctionData({ abi: smartAccountFactoryAbi, functionName: 'createAccount', args: [owner.address, salt] }),
        signature,
      });
    const answer = await client.signed(ownerKey, 'createDnsRecord', record, { signer: account, headers, wrapSignature: wrap });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toContain('did not accept the signature');

    // The same signature, given the gas the factory burns, is the account's: the cap alone refused it.
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', record);
    const typed = envelopeTypedData(await client.signingDomain(), TYPE_REGISTRY, 'CreateDnsRecordEnvelope', envelope);
    const signature = wrap(await owner.signTypedData(typed as never));
    const hash = hashTypedData(typed as never);
    expect(await chainSignatures(chain().clients.public).isValidSignature({ account, hash, signature })).toBe(false);
    expect(await chainSignatures(chain().clients.public, { gas: 20_000_000n }).isValidSignature({ account, hash, signature })).toBe(true);
    expect(await chain().clients.public.getCode({ address: account })).toBeUndefined();
  });

  it('a chain that does not answer in time is a 401 (and a failed SIWE sign-in), never a 5xx', async () => {
    const silent = await silentRpc();
    try {
      service.services.contractSignatures = chainSignatures(createPublicClient({ chain: foundry, transport: http(silent.url, { retryCount: 0 }) }) as never);
      const account = await deployedAccount();
      const headers = newClient();
      const answer = await client.signed(generatePrivateKey(), 'createDnsRecord', record, { signer: account, headers });
      expect(answer.status).toBe(401);
      expect(answer.body.message).toContain('could not be verified in time');

      const siweHeaders = newClient();
      const nonce = await client.call('getSiweNonce', { query: { signerAddress: account }, headers: siweHeaders });
      const prepared = await client.call('prepareSiweMessage', { query: { signerAddress: account, nonce: nonce.body.nonce, chainId: 31337 }, headers: siweHeaders });
      const signature = await newKey().signMessage({ message: prepared.body.messageString });
      const verified = await client.call('verifySiwe', { body: { address: account, message: prepared.body.message, signature }, headers: siweHeaders });
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ valid: false });
      expect(verified.body.error).toContain('could not be verified in time');
    } finally {
      silent.close();
    }
  });
});

/**
 * A factory, installed with anvil_setCode, that loops through about 5M gas and then forwards its calldata to `factory`:
 * given the gas, it deploys the real account; under the cap it runs out first.
 */
async function gasBurningFactory(factory: Address): Promise<Address> {
  const code = concat([
    '0x62030000', // PUSH3 196608: iterations of 26 gas
    '0x5b6001900380600457', // 4: JUMPDEST PUSH1 1 SWAP1 SUB DUP1 PUSH1 4 JUMPI
    '0x50', // POP
    '0x366000600037', // CALLDATACOPY(0, 0, CALLDATASIZE)
    '0x60006000366000600073', // CALL's retSize 0, retOffset 0, argsSize, argsOffset 0, value 0; PUSH20
    factory,
    '0x5af1', // GAS CALL
    '0x603c57', // PUSH1 60 JUMPI: on success
    '0x60006000fd', // REVERT(0, 0)
    '0x5b00', // 60: JUMPDEST STOP
  ]);
  const address = newKey().address;
  await chain().clients.public.request({ method: 'anvil_setCode' as never, params: [address, code] as never });
  return address;
}

/** An RPC endpoint that accepts connections and never answers. */
async function silentRpc(): Promise<{ url: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
