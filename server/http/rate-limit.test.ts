import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { TEST_KEYS, testClient } from '../../test/support/client.ts';
import { RateLimiter } from './rate-limit.ts';

const LIMIT = 12;
let service: TestService;
let h: TestService['services']['headers'];

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUSTED_PROXIES: '127.0.0.8,127.0.0.9/32' });
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

/** The most admitted in any 60-second span [t, t + 60 s) of sorted admission times. */
function busiestMinute(times: number[]): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (j < times.length && times[j] < times[i] + 60_000) j += 1;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('the sliding window', () => {
  it('admits at most the budget in any 60 seconds, across what was a fixed window\'s edge', () => {
    let now = 1_700_000_000_000;
    const limiter = new RateLimiter(10, () => now);
    const admitted: number[] = [];
    const hit = (units = 1) => {
      const result = limiter.hit('client', units);
      if (result.allowed) admitted.push(now);
      return result;
    };
    expect(hit().allowed).toBe(true);
    now += 59_000;
    for (let i = 0; i < 9; i++) expect(hit().allowed).toBe(true);
    // A fixed window opened by the first request would start afresh here and admit 10 more.
    now += 2_000;
    const after = Array.from({ length: 10 }, () => hit());
    expect(after.map((r) => r.allowed)).toEqual([true, ...Array(9).fill(false)]);
    // The refusals tell when the nine at 59 s leave the window, and cost nothing meanwhile.
    expect(after[1].resetSeconds).toBe(59);
    now += 58_999;
    expect(hit().allowed).toBe(false);
    now += 1;
    expect(hit().allowed).toBe(true);
    expect(busiestMinute(admitted)).toBe(10);

    // A request that would need more units than are left is refused whole.
    now += 120_000;
    expect(hit(8).allowed).toBe(true);
    expect(hit(3)).toMatchObject({ allowed: false, remaining: 2 });
    expect(hit(2)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('holds for any pattern of arrivals: a seeded random walk of bursts and pauses', () => {
    let seed = 24;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let now = 1_700_000_000_000;
    const limiter = new RateLimiter(25, () => now);
    const admitted: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      now += random() < 0.02 ? Math.floor(random() * 70_000) : Math.floor(random() * 400);
      if (limiter.hit('client').allowed) admitted.push(now);
    }
    expect(admitted.length).toBeGreaterThan(1000);
    expect(busiestMinute(admitted)).toBe(25);
  });
});

describe('windows over HTTP, on the service\'s clock', () => {
  it('lets one request in after a minute, not a fresh budget', async () => {
    const realNow = service.services.now;
    let now = Math.ceil(Date.now() / 1000) * 1000 + 3_600_000;
    service.services.now = () => new Date(now);
    try {
      const from = '127.0.0.12';
      expect((await get('/siwe/allowed-chains', from)).status).toBe(200);
      now += 59_000;
      for (let i = 1; i < LIMIT; i++) expect((await get('/siwe/allowed-chains', from)).status).toBe(200);
      now += 2_000;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await get('/siwe/allowed-chains', from)).status);
      expect(statuses).toEqual([200, 429, 429]);
      const refused = await get('/siwe/allowed-chains', from);
      expect(refused.headers['retry-after']).toBe('59');
      expect(refused.body).toMatchObject({ defined: true, code: 'TOO_MANY_REQUESTS', status: 429 });
    } finally {
      service.services.now = realNow;
    }
  });
});

describe('client addresses over HTTP', () => {
  const remaining = async (from: string, forwardedFor?: string) => {
    const answer = await get('/siwe/allowed-chains', from, forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor });
    return answer.status === 429 ? 'refused' : Number(answer.headers['ratelimit-remaining']);
  };

  it('ignores X-Forwarded-For from an untrusted peer', async () => {
    expect(await remaining('127.0.0.10', '198.51.100.50')).toBe(LIMIT - 1);
    expect(await remaining('127.0.0.10', '198.51.100.51')).toBe(LIMIT - 2);
    expect(await remaining('127.0.0.10', '2001:db8:77::1')).toBe(LIMIT - 3);
  });

  it('believes a trusted proxy about the address it saw, whatever the client wrote to its left', async () => {
    expect(await remaining('127.0.0.8', '198.51.100.7')).toBe(LIMIT - 1);
    expect(await remaining('127.0.0.8', '::ffff:198.51.100.7')).toBe(LIMIT - 2);
    expect(await remaining('127.0.0.8', '6.6.6.6, 198.51.100.7')).toBe(LIMIT - 3);
    // Through two trusted proxies.
    expect(await remaining('127.0.0.8', '198.51.100.7, 127.0.0.9')).toBe(LIMIT - 4);
    expect(await remaining('127.0.0.8', '198.51.100.8')).toBe(LIMIT - 1);
    // The proxy itself spent none of its own budget on them.
    expect(await remaining('127.0.0.8')).toBe(LIMIT - 1);
  });

  it('gives every address of one IPv6 /64 one budget, and another /64 its own', async () => {
    const answers = [];
    for (let i = 0; i <= LIMIT; i++) answers.push(await remaining('127.0.0.8', `2001:db8:a:b:${((i * 7919) % 65536).toString(16)}::${i + 1}`));
    expect(answers).toEqual([...Array.from({ length: LIMIT }, (_, i) => LIMIT - 1 - i), 'refused']);
    expect(await remaining('127.0.0.8', '2001:0db8:000a:000b:ffff:ffff:ffff:ffff')).toBe('refused');
    expect(await remaining('127.0.0.9', '2001:db8:a:c::1')).toBe(LIMIT - 1);
  });
});
