import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope } from '#core/eip712/envelope.ts';
import { startTestService, type TestService } from '../support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type Reply, type TestClient } from '../support/client.ts';
import { Deep, toJsonText } from './arbitraries.ts';
import { digest, digestQuery } from './database-digest.ts';

/** The inputs issue 19 found answering 500 or stored rewritten: each is now a 400 naming its field, and writes nothing. */
const [OWNER_KEY] = TEST_KEYS;
const OWNER = addressOf(OWNER_KEY);
const ZONE = 'known-inputs.com';
const RANDOM_SIGNATURE = `0x${'ab'.repeat(65)}`;

let service: TestService;
let client: TestClient;
let token: string;
let digestSql: string;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: OWNER, chainId: 31337, years: 1, now: new Date() });
  expect((await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false })).status).toBe(200);
  token = await client.signIn(OWNER_KEY);
  digestSql = await digestQuery(service.services.db);
});
afterAll(() => service?.destroy());

/** Sends, then expects a 400 whose fieldErrors (or formErrors) hold `field` with `message`, and an unchanged database. */
async function expectRefused(send: () => Promise<Reply>, field: string | null, message: RegExp) {
  const before = await digest(service.services.db, digestSql);
  const reply = await send();
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body).toMatchObject({ defined: true, code: 'BAD_REQUEST', status: 400 });
  const messages = field === null ? reply.body.data.formErrors : reply.body.data.fieldErrors[field];
  expect(messages, JSON.stringify(reply.body.data)).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
  expect(await digest(service.services.db, digestSql)).toEqual(before);
}

const signedWithRandomSignature = (id: 'createDnsRecord', primaryType: string, payloadText: string) =>
  client.call(id, {
    rawBody: `{"payloadType":"${primaryType.replace(/Envelope$/, '')}","payload":${payloadText},"timestamp":${Math.floor(Date.now() / 1000)},"nonce":"0x01"}`,
    headers: { [client.headers.signer]: OWNER, [client.headers.signature]: RANDOM_SIGNATURE, [client.headers.eip712Type]: primaryType },
  });

describe('text that PostgreSQL cannot store', () => {
  it('a NUL in an envelope nonce is a 400 on nonce, signed or not', async () => {
    await expectRefused(() => client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, type: 'TXT', name: 'a', rdata: '"x"', ttl: 60 }, { nonce: 'abc\u0000def' }), 'nonce', /U\+0000/);
    const envelope = buildEnvelope('CreateDnsRecordEnvelope', { zoneName: ZONE }, { nonce: '\u0000' });
    await expectRefused(() => client.call('createDnsRecord', { body: envelope, headers: client.withApiKey(`nfk_${'A'.repeat(43)}`) }), 'nonce', /U\+0000/);
  });

  it('a NUL in the SIWE message nonce, or anywhere in the verify body, is a 400 on that field', async () => {
    await expectRefused(() => client.call('prepareSiweMessage', { query: { signerAddress: OWNER, nonce: 'abcdefgh\u0000', chainId: 31337 } }), 'nonce', /U\+0000/);
    const nonce = (await client.call('getSiweNonce', { query: { signerAddress: OWNER } })).body.nonce;
    const prepared = (await client.call('prepareSiweMessage', { query: { signerAddress: OWNER, nonce, chainId: 31337 } })).body;
    for (const field of ['nonce', 'domain', 'uri', 'statement'] as const) {
      const message = { ...prepared.message, [field]: `${prepared.message[field]}\u0000` };
      await expectRefused(() => client.call('verifySiwe', { body: { address: OWNER, message, signature: '0x1234' } }), `message.${field}`, /U\+0000/);
    }
  });

  it('API-key labels refuse NUL, other control characters and text-direction overrides', async () => {
    for (const label of ['lap\u0000top', 'bell\u0007', 'evil\u202eexe.txt', 'isolate\u2066x\u2069', 'x\ud800']) {
      await expectRefused(() => client.call('createApiKey', { body: { label }, headers: client.withToken(token) }), 'label', /control|lone surrogate/);
    }
    const fine = await client.call('createApiKey', { body: { label: 'Laptop — café ☕' }, headers: client.withToken(token) });
    expect(fine.status).toBe(200);
    expect(fine.body.label).toBe('Laptop — café ☕');
  });
});

describe('numbers outside what a column holds', () => {
  it('a chain id above 2^31−1 is a 400 in a SIWE message and in nftReceivingWallet', async () => {
    await expectRefused(() => client.call('prepareSiweMessage', { query: { signerAddress: OWNER, nonce: 'abcdefgh12', chainId: 2 ** 31 } }), 'chainId', /at most 2147483647/);
    const nonce = (await client.call('getSiweNonce', { query: { signerAddress: OWNER } })).body.nonce;
    const prepared = (await client.call('prepareSiweMessage', { query: { signerAddress: OWNER, nonce, chainId: 31337 } })).body;
    const message = { ...prepared.message, chainId: 2 ** 31 };
    await expectRefused(() => client.call('verifySiwe', { body: { address: OWNER, message, signature: '0x1234' } }), 'message.chainId', /at most 2147483647/);
    const wallet = { walletAddress: OWNER, chainId: 2 ** 31 };
    await expectRefused(() => client.signed(OWNER_KEY, 'registerDomain', { normalizedDomainName: 'chain-bound.com', durationInYears: 1, nftReceivingWallet: wallet }), 'nftReceivingWallet.chainId', /at most 2147483647/);
  });

  it('a ttl of 1e70 is a 400 on ttl when signed, and a 401 with a random signature; 1e100, beyond a uint256, is a 400 either way', async () => {
    await expectRefused(() => client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, type: 'TXT', name: 'big', rdata: '"x"', ttl: 1e70 }), 'ttl', /at most 2147483647/);
    const reply = await signedWithRandomSignature('createDnsRecord', 'CreateDnsRecordEnvelope', JSON.stringify({ zoneName: ZONE, name: 'big', type: 'TXT', rdata: '"x"', ttl: 1e70 }));
    expect(reply.status).toBe(401);
    await expectRefused(() => signedWithRandomSignature('createDnsRecord', 'CreateDnsRecordEnvelope', JSON.stringify({ zoneName: ZONE, name: 'big', type: 'TXT', rdata: '"x"', ttl: 1e100 })), 'ttl', /above the largest uint256/);
  });
});

describe('structure', () => {
  it('a 10,000-deep array in a payload is a 400 naming the depth, before any signature is looked at', async () => {
    const payload = toJsonText({ zoneName: ZONE, name: 'deep', type: 'TXT', rdata: new Deep(10_000), ttl: 60 });
    await expectRefused(() => signedWithRandomSignature('createDnsRecord', 'CreateDnsRecordEnvelope', payload), null, /deeper than 64 levels/);
    // Shallow enough to parse, it is still no string: refused on rdata, before any signature is looked at too.
    const shallow = toJsonText({ zoneName: ZONE, name: 'deep', type: 'TXT', rdata: new Deep(60), ttl: 60 });
    await expectRefused(() => signedWithRandomSignature('createDnsRecord', 'CreateDnsRecordEnvelope', shallow), 'rdata', /must be text/);
  });

  it('types-for-method answers found: false for the names of Object.prototype', async () => {
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      const reply = await client.call('getEip712TypesForMethod', { query: { method } });
      expect(reply.status, method).toBe(200);
      expect(reply.body).toMatchObject({ found: false, acceptedPrimaryTypes: [] });
    }
  });
});

describe('Unicode names are refused, never rewritten', () => {
  const create = (record: Record<string, unknown>, zoneName = ZONE) => () => client.signed(OWNER_KEY, 'createDnsRecord', { zoneName, ttl: 300, ...record });

  it('a record name that is not ASCII is a 400 on name', async () => {
    await expectRefused(create({ type: 'A', name: 'ü', rdata: '192.0.2.1' }), 'name', /not ASCII: send its A-label \(xn--…\)/);
    await expectRefused(create({ type: 'A', name: 'ü@mail', rdata: '192.0.2.1' }), 'name', /not ASCII/);
    await expectRefused(
      () => client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: ZONE, records: [{ name: 'münchen', type: 'A', rdata: '192.0.2.1', ttl: 300 }] }),
      'records.0.name',
      /not ASCII/,
    );
  });

  it('a host name inside record data that is not ASCII is a 400 on rdata', async () => {
    await expectRefused(create({ type: 'CNAME', name: 'www', rdata: 'bücher.example.' }), 'rdata', /not ASCII/);
    await expectRefused(create({ type: 'MX', name: '@', rdata: '10 mäil.example.com.' }), 'rdata', /not ASCII/);
    await expectRefused(create({ type: 'NS', name: 'sub', rdata: 'ns.bücher.example.' }), 'rdata', /not ASCII/);
  });

  it('a zone or domain name that is not ASCII is a 400 on that field', async () => {
    await expectRefused(create({ type: 'A', name: 'www', rdata: '192.0.2.1' }, 'münchen.com'), 'zoneName', /not ASCII/);
    await expectRefused(() => client.signed(OWNER_KEY, 'registerDomain', { normalizedDomainName: 'bücher.com', durationInYears: 1 }), 'normalizedDomainName', /not ASCII/);
    await expectRefused(
      () => client.signed(OWNER_KEY, 'registerWithRecords', { normalizedDomainName: 'ascii-only.com', durationInYears: 1, records: [{ name: 'www', type: 'CNAME', rdata: 'bücher.example.', ttl: 300 }] }),
      'records.0.rdata',
      /not ASCII/,
    );
  });

  it('A-labels and Unicode text inside TXT are stored exactly as sent', async () => {
    const alabel = await create({ type: 'CNAME', name: 'xn--tda', rdata: 'xn--bcher-kva.example.' })();
    expect(alabel.status, JSON.stringify(alabel.body)).toBe(200);
    expect(alabel.body).toMatchObject({ name: 'xn--tda', rdata: 'xn--bcher-kva.example.' });
    const txt = await create({ type: 'TXT', name: 'greeting', rdata: '"grüße aus münchen"' })();
    expect(txt.status, JSON.stringify(txt.body)).toBe(200);
    expect(txt.body.rdata).toBe('"grüße aus münchen"');
  });
});
