import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../test-support/test-service.ts';
import { TEST_KEYS, testClient } from '../test-support/client.ts';

const LIMIT = 12;
let service: TestService;
let h: TestService['services']['headers'];

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  h = service.services.headers;
});
afterAll(() => service.destroy());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A GET from a chosen loopback address (all of 127.0.0.0/8 is this machine), as two clients would send. */
function get(path: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(service.baseUrl + path);
  return new Promise((done, fail) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, localAddress: from, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', fail);
    req.end();
  });
}

const invented = (i: number): Record<string, string> => {
  const hex = i.toString(16).padStart(40, '0');
  return [
    { 'x-api-key': `nfk_${'A'.repeat(39)}${String(i).padStart(4, '0')}` },
    { [h.signer]: `0x${hex}`, [h.signature]: `0x${'11'.repeat(65)}`, [h.eip712Type]: 'RecordSelectEnvelope' },
    { [h.siweToken]: `invented-${i}` },
  ][i % 3];
};

describe('rate limiting', () => {
  it('counts every request against its address first: rotating invented credentials earns nothing', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < LIMIT + 3; i++) answers.push(await get('/user/domains', '127.0.0.3', invented(i)));
    expect(answers.slice(0, LIMIT).every((a) => a.status === 401)).toBe(true);
    const limited = answers.slice(LIMIT);
    for (const answer of limited) {
      expect(answer.status).toBe(429);
      expect(answer.body).toMatchObject({ defined: true, code: 'TOO_MANY_REQUESTS', status: 429 });
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.headers['ratelimit-remaining']).toBe('0');
    }
    // Another address has its own budget.
    expect((await get('/siwe/allowed-chains', '127.0.0.4')).status).toBe(200);
  });

  it('gives a verified wallet one budget across addresses, and shows the tighter budget in the headers', async () => {
    const client = testClient(service);
    const token = await client.signIn(TEST_KEYS[1]); // 3 requests from 127.0.0.1
    const statuses: number[] = [];
    const remaining: string[] = [];
    // Alternate between two fresh addresses: neither uses up its own budget, the wallet does.
    for (let i = 0; i < LIMIT + 2; i++) {
      const answer = await get('/user/domains', i % 2 ? '127.0.0.5' : '127.0.0.6', { [h.siweToken]: token });
      statuses.push(answer.status);
      remaining.push(String(answer.headers['ratelimit-remaining']));
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(200));
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
    expect(remaining.slice(0, 3)).toEqual([String(LIMIT - 1), String(LIMIT - 2), String(LIMIT - 3)]);
  });

  it('sends the RateLimit headers on every answer', async () => {
    const answer = await get('/siwe/allowed-chains', '127.0.0.7');
    expect(answer.headers).toMatchObject({ 'ratelimit-limit': String(LIMIT), 'ratelimit-remaining': String(LIMIT - 1) });
    expect(Number(answer.headers['ratelimit-reset'])).toBeGreaterThan(0);
  });
});
