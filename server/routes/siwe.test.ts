import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

const [KEY, OTHER_KEY] = TEST_KEYS;
const ADDRESS = addressOf(KEY);
const account = privateKeyToAccount(KEY);

let service: TestService;
let client: TestClient;
const realNow = () => new Date();

beforeAll(async () => {
  service = await startTestService({ SIWE_DOMAIN: 'app.example.test:5173', ALLOWED_CHAINS: '31337,8453' });
  client = testClient(service);
});
afterAll(() => service.destroy());
afterEach(() => {
  service.services.now = realNow;
});

async function prepared(chainId = 31337, signer = ADDRESS) {
  const nonce = await client.call('getSiweNonce', { query: { signerAddress: signer } });
  const message = await client.call('prepareSiweMessage', { query: { signerAddress: signer, nonce: nonce.body.nonce, chainId } });
  return { nonce: nonce.body.nonce as string, ...message };
}

describe('SIWE', () => {
  it('lists the configured chains', async () => {
    const reply = await client.call('getSiweAllowedChains');
    expect(reply).toMatchObject({ status: 200, body: [31337, 8453] });
  });

  it('gives a nonce and a message naming the address, nonce, chain and configured domain', async () => {
    const { nonce, status, body } = await prepared();
    expect(status).toBe(200);
    expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
    expect(body.valid).toBe(true);
    expect(body.message).toMatchObject({
      address: ADDRESS,
      chainId: 31337,
      domain: 'app.example.test:5173',
      uri: 'http://app.example.test:5173',
      nonce,
      statement: 'Sign in to Namefi API',
      version: '1',
    });
    expect(new Date(body.message.expirationTime).getTime() - new Date(body.message.issuedAt).getTime()).toBe(300_000);
    const parsed = parseSiweMessage(body.messageString);
    expect(parsed).toMatchObject({ address: ADDRESS, nonce, chainId: 31337, domain: 'app.example.test:5173', statement: 'Sign in to Namefi API' });
  });

  it('signs in, and the token opens a siwe operation', async () => {
    const { body } = await prepared();
    const signature = await account.signMessage({ message: body.messageString });
    const verified = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature } });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ valid: true, chainId: 31337, maxAgeSeconds: 43200 });
    expect(verified.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await client.call('listApiKeys', { headers: client.withToken(verified.body.token) })).status).toBe(200);
  });

  it('verifies the text as the message spells its times (without milliseconds too)', async () => {
    const { body } = await prepared();
    const trim = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z');
    const message = { ...body.message, issuedAt: trim(body.message.issuedAt), expirationTime: trim(body.message.expirationTime) };
    const text = (body.messageString as string).replace(body.message.issuedAt, message.issuedAt).replace(body.message.expirationTime, message.expirationTime);
    expect(text).toContain(`Issued At: ${message.issuedAt}\n`);
    const signature = await account.signMessage({ message: text });
    const reply = await client.call('verifySiwe', { body: { address: ADDRESS, message, signature } });
    expect(reply.body.valid).toBe(true);
  });

  it('refuses a nonce used twice', async () => {
    const { body } = await prepared();
    const signature = await account.signMessage({ message: body.messageString });
    const first = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature } });
    expect(first.body.valid).toBe(true);
    const again = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature } });
    expect(again.body).toEqual({ valid: false, error: expect.stringMatching(/nonce was already used/) });
    const message = await client.call('prepareSiweMessage', { query: { signerAddress: ADDRESS, nonce: body.message.nonce, chainId: 31337 } });
    expect(message.status).toBe(400);
    expect(message.body.data.fieldErrors.nonce[0]).toMatch(/already used/);
  });

  it('refuses an unknown nonce, a nonce of another address and a chain not allowed', async () => {
    const unknown = await client.call('prepareSiweMessage', { query: { signerAddress: ADDRESS, nonce: 'abcdefgh12345678', chainId: 31337 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.fieldErrors.nonce[0]).toMatch(/not known/);
    const other = await client.call('getSiweNonce', { query: { signerAddress: addressOf(OTHER_KEY) } });
    const stolen = await client.call('prepareSiweMessage', { query: { signerAddress: ADDRESS, nonce: other.body.nonce, chainId: 31337 } });
    expect(stolen.body.data.fieldErrors.nonce[0]).toMatch(/another address/);
    const chain = await prepared(1);
    expect(chain.status).toBe(400);
    expect(chain.body.data.fieldErrors.chainId[0]).toMatch(/Chain 1 is not allowed.*31337, 8453/);
  });

  it('refuses a message for another domain or chain, even if signed', async () => {
    const { body } = await prepared();
    for (const change of [{ domain: 'evil.example' }, { chainId: 1 }, { uri: 'http://evil.example' }]) {
      const message = { ...body.message, ...change };
      const { createSiweMessage } = await import('viem/siwe');
      const text = createSiweMessage({ ...message, issuedAt: new Date(message.issuedAt), expirationTime: new Date(message.expirationTime) });
      const signature = await account.signMessage({ message: text });
      const reply = await client.call('verifySiwe', { body: { address: ADDRESS, message, signature } });
      expect(reply.status).toBe(200);
      expect(reply.body.valid).toBe(false);
      expect(reply.body.error).toMatch(/evil\.example|Chain 1|URI/);
    }
    // The nonce was not spent by the refused attempts.
    const signature = await account.signMessage({ message: body.messageString });
    expect((await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature } })).body.valid).toBe(true);
  });

  it('refuses a signature by another wallet, and a garbled one', async () => {
    const { body } = await prepared();
    const wrong = await privateKeyToAccount(OTHER_KEY).signMessage({ message: body.messageString });
    const reply = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature: wrong } });
    expect(reply.body).toEqual({ valid: false, error: expect.stringMatching(/signature does not match/) });
    const garbled = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature: '0xdead' } });
    expect(garbled.body.valid).toBe(false);
  });

  it('refuses an expired nonce', async () => {
    const { body } = await prepared();
    const signature = await account.signMessage({ message: body.messageString });
    service.services.now = () => new Date(Date.now() + 301_000);
    const reply = await client.call('verifySiwe', { body: { address: ADDRESS, message: body.message, signature } });
    expect(reply.body).toEqual({ valid: false, error: expect.stringMatching(/expired/) });
  });

  it('answers 400 to a malformed verify body', async () => {
    const reply = await client.call('verifySiwe', { body: { address: 'nope', message: {}, signature: 'x' } });
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.body.data.fieldErrors)).toEqual(expect.arrayContaining(['address', 'signature']));
  });
});
