import { describe, expect, it } from 'vitest';
import { ApiError, buildUrl, callOperation } from './client.ts';

const BASE = 'http://127.0.0.1:8787/v-next';
type Reply = { status: number; body?: unknown; headers?: Record<string, string> };

function fakeFetch(replies: Reply[]) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const reply = replies.shift();
    if (!reply) throw new TypeError('Failed to fetch');
    const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
    return new Response(text, { status: reply.status, headers: reply.headers });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const order = {
  id: 'o1', status: 'CREATED', amountInUSDCents: 1200, nftWalletAddress: '0x0000000000000000000000000000000000000001', nftChainId: 1,
  metadata: {}, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', startedAt: null, finishedAt: null,
};

describe('callOperation', () => {
  it('builds the URL from the operation table, with repeated array parameters and filled path params', async () => {
    expect(buildUrl(BASE, '/search/bulk-availability', { domains: ['a.com', 'b.com'], skip: undefined })).toBe(
      `${BASE}/search/bulk-availability?domains=a.com&domains=b.com`,
    );
    const { fetch, calls } = fakeFetch([{ status: 200, body: { success: true } }]);
    await callOperation('revokeApiKey', { params: { id: 'a/b' } }, { baseUrl: BASE, fetch, headers: { 'x-api-key': 'k' } });
    expect(calls[0].url).toBe(`${BASE}/user/api-keys/a%2Fb`);
    expect(calls[0].init.method).toBe('DELETE');
    expect((calls[0].init.headers as Record<string, string>)['x-api-key']).toBe('k');
  });

  it('sends JSON and returns the parsed answer', async () => {
    const { fetch, calls } = fakeFetch([{ status: 200, body: { id: 'k1', label: 'ci', key: 'nfk_x', createdAt: '2026-01-01T00:00:00.000Z' } }]);
    const created = await callOperation('createApiKey', { body: { label: 'ci' } }, { baseUrl: BASE, fetch });
    expect(created.label).toBe('ci');
    expect(calls[0].init.body).toBe('{"label":"ci"}');
    expect((calls[0].init.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it("accepts production's variants: an enveloped write answer, a nested SIWE session, a bare parked boolean", async () => {
    const { fetch } = fakeFetch([
      { status: 200, body: { payloadType: 'X', payload: { ...order, items: [] }, timestamp: 1, nonce: 'n' } },
      { status: 200, body: { valid: true, session: { token: 't', chainId: 1, createdAt: '2026-01-01T00:00:00.000Z', maxAgeSeconds: 43200 } } },
      { status: 200, body: true },
    ]);
    expect((await callOperation('registerDomain', { body: {} }, { baseUrl: BASE, fetch })).id).toBe('o1');
    expect(await callOperation('verifySiwe', { body: {} }, { baseUrl: BASE, fetch })).toMatchObject({ valid: true, token: 't' });
    expect(await callOperation('isDomainParked', { query: { normalizedDomainName: 'a.com' } }, { baseUrl: BASE, fetch })).toEqual({ parked: true });
  });

  it('turns a 400 into field errors a form can show', async () => {
    const { fetch } = fakeFetch([
      {
        status: 400,
        body: { defined: true, code: 'BAD_REQUEST', status: 400, message: 'Invalid input', data: { formErrors: [], fieldErrors: { rdata: ['Not an IPv4 address'] }, rule: 'DNS_DUPLICATE' } },
      },
    ]);
    const error = await callOperation('createDnsRecord', { body: {} }, { baseUrl: BASE, fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', fieldErrors: { rdata: ['Not an IPv4 address'] }, rule: 'DNS_DUPLICATE' });
  });

  it("reads production's 422 INPUT_VALIDATION_FAILED like a 400", async () => {
    const { fetch } = fakeFetch([
      { status: 422, body: { defined: true, code: 'INPUT_VALIDATION_FAILED', status: 422, message: 'Bad', data: { formErrors: ['Too many'], fieldErrors: {} } } },
    ]);
    await expect(callOperation('createDnsRecord', { body: {} }, { baseUrl: BASE, fetch })).rejects.toMatchObject({
      status: 422,
      code: 'INPUT_VALIDATION_FAILED',
      formErrors: ['Too many'],
    });
  });

  it('waits out a 429 on a read for Retry-After seconds, then answers', async () => {
    const { fetch, calls } = fakeFetch([
      { status: 429, body: { error: 'Too Many Requests' }, headers: { 'retry-after': '2' } },
      { status: 200, body: [11155111] },
    ]);
    const waits: number[] = [];
    const chains = await callOperation('getSiweAllowedChains', {}, { baseUrl: BASE, fetch, sleep: async (ms) => void waits.push(ms) });
    expect(chains).toEqual([11155111]);
    expect(waits).toEqual([2000]);
    expect(calls).toHaveLength(2);
  });

  it('never replays a write after a 429, and says how long to wait', async () => {
    const { fetch, calls } = fakeFetch([{ status: 429, body: { error: 'Too Many Requests' }, headers: { 'retry-after': '3' } }]);
    await expect(callOperation('createApiKey', { body: { label: 'x' } }, { baseUrl: BASE, fetch, sleep: async () => {} })).rejects.toMatchObject({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      message: 'Too Many Requests',
      retryAfterSeconds: 3,
    });
    expect(calls).toHaveLength(1);
  });

  it('surfaces a long Retry-After at once instead of hanging', async () => {
    const { fetch, calls } = fakeFetch([{ status: 429, body: { error: 'Too Many Requests' }, headers: { 'retry-after': '60' } }]);
    await expect(callOperation('getSiweAllowedChains', {}, { baseUrl: BASE, fetch, sleep: async () => {} })).rejects.toMatchObject({ retryAfterSeconds: 60 });
    expect(calls).toHaveLength(1);
  });

  it('reports an unreachable service as a network error', async () => {
    const { fetch } = fakeFetch([]);
    await expect(callOperation('getSiweAllowedChains', {}, { baseUrl: BASE, fetch })).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('refuses an answer that does not fit the operation', async () => {
    const { fetch } = fakeFetch([{ status: 200, body: { unexpected: true } }]);
    await expect(callOperation('getBalance', {}, { baseUrl: BASE, fetch })).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('treats a park answer of 200 {success:false} as a failure', async () => {
    const { fetch } = fakeFetch([{ status: 200, body: { success: false, message: 'Domain not found' } }]);
    await expect(callOperation('parkDomain', { body: {} }, { baseUrl: BASE, fetch })).rejects.toMatchObject({ status: 400, message: 'Domain not found' });
  });
});
