import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { addressOf, TEST_KEYS, testClient, type TestClient } from '../../test/support/client.ts';

/**
 * What a client sees of compression: with Accept-Encoding it gets a compressed body that decodes to the same JSON a
 * client without it gets plain. Raw HTTP (node:http), because fetch asks for compression itself and hides it.
 */
const [OWNER_KEY] = TEST_KEYS;
const ZONE = 'compressed.com';
let service: TestService;
let client: TestClient;

interface RawReply {
  status: number;
  encoding?: string;
  vary: string;
  body: Buffer;
}

function raw(path: string, acceptEncoding?: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
    get(`${service.baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, encoding: response.headers['content-encoding'], vary: String(response.headers.vary ?? ''), body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    }).on('error', reject);
  });
}

function decoded(reply: RawReply): string {
  if (reply.encoding === 'gzip') return gunzipSync(reply.body).toString('utf8');
  if (reply.encoding === 'br') return brotliDecompressSync(reply.body).toString('utf8');
  if (reply.encoding) throw new Error(`unexpected encoding ${reply.encoding}`);
  return reply.body.toString('utf8');
}

const recordsPath = `/dns/records?zoneName=${ZONE}`;

beforeAll(async () => {
  service = await startTestService();
  client = testClient(service);
  await service.services.ownership.mint({ name: ZONE, to: addressOf(OWNER_KEY), chainId: 31337, years: 1, now: new Date() });
  const unpark = await client.signed(OWNER_KEY, 'toggleDomainParking', { normalizedDomainName: ZONE, enableParking: false, overrideExistingRecords: false });
  expect(unpark.status).toBe(200);
  const records = Array.from({ length: 300 }, (_, i) => ({ name: `host-${i}`, type: 'A', rdata: `10.0.${i >> 8}.${i & 255}`, ttl: 300 }));
  const created = await client.signed(OWNER_KEY, 'batchCreateDnsRecords', { zoneName: ZONE, records });
  expect(created.status).toBe(200);
});
afterAll(() => service.destroy());

describe('the records list', () => {
  it('goes plain to a client that accepts no encoding, and says it varies by Accept-Encoding', async () => {
    const plain = await raw(recordsPath);
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeUndefined();
    expect(plain.vary.toLowerCase()).toContain('accept-encoding');
    expect(JSON.parse(plain.body.toString('utf8'))).toHaveLength(300);
    const refused = await raw(recordsPath, 'gzip;q=0, br;q=0');
    expect(refused.encoding).toBeUndefined();
    expect(refused.body.equals(plain.body)).toBe(true);
  });

  it('goes gzip or brotli, much smaller, decoding to the same JSON', async () => {
    const plain = (await raw(recordsPath)).body.toString('utf8');
    const gzipped = await raw(recordsPath, 'gzip');
    expect(gzipped.encoding).toBe('gzip');
    expect(gzipped.body.length).toBeLessThan(plain.length / 4);
    expect(decoded(gzipped)).toBe(plain);
    const brotli = await raw(recordsPath, 'br');
    expect(brotli.encoding).toBe('br');
    expect(decoded(brotli)).toBe(plain);
  });

  it("answers a browser's Accept-Encoding with gzip at once and brotli once it is made, then a new version after a write", async () => {
    const before = (await raw(recordsPath)).body.toString('utf8');
    const browser = 'gzip, deflate, br, zstd';
    const first = await raw(recordsPath, browser);
    expect(['gzip', 'br']).toContain(first.encoding);
    expect(decoded(first)).toBe(before);
    await expect.poll(async () => (await raw(recordsPath, browser)).encoding).toBe('br');

    const added = await client.signed(OWNER_KEY, 'createDnsRecord', { zoneName: ZONE, name: 'after', type: 'TXT', rdata: '"written after"', ttl: 300 });
    expect(added.status).toBe(200);
    const after = JSON.parse(decoded(await raw(recordsPath, browser))) as Array<{ name: string }>;
    expect(after).toHaveLength(301);
    expect(after.at(-1)?.name).toBe('after');
  });
});

describe('other answers', () => {
  it('compresses the OpenAPI document and the API reference assets for a client that accepts gzip', async () => {
    for (const path of ['/openapi.json', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-ui.css']) {
      const plain = await raw(path);
      expect(plain.encoding, path).toBeUndefined();
      const gzipped = await raw(path, 'gzip, deflate, br');
      expect(gzipped.encoding, path).toBe('gzip');
      expect(gzipped.body.length, path).toBeLessThan(plain.body.length / 2);
      expect(decoded(gzipped), path).toBe(plain.body.toString('utf8'));
    }
  });

  it('compresses an error answer too', async () => {
    const missing = await raw('/dns/records?zoneName=nowhere-at-all.com', 'gzip');
    expect(missing.status).toBe(404);
    expect(missing.encoding).toBe('gzip');
    expect(JSON.parse(decoded(missing)).code).toBeDefined();
  });
});
