import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../test/support/test-service.ts';
import { testClient, TEST_KEYS, type TestClient } from '../../test/support/client.ts';

let service: TestService;
let client: TestClient;

beforeAll(async () => {
  service = await startTestService({ ORDER_PROCESSING_MS: '600000' });
  client = testClient(service);
});
afterAll(() => service.destroy());

const availability = (domain: string) => client.call('checkAvailability', { query: { domain } });

describe('GET /search/availability', () => {
  it('offers a free name with its yearly price and duration range', async () => {
    const reply = await availability('brand-new-name.com');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      domain: 'brand-new-name.com',
      availability: true,
      supported: true,
      importable: false,
      pricingDetails: {
        registrationPrice: { type: 'PER_YEAR', price: { amount: 12.5, currency: 'USD' } },
        renewalPrice: { type: 'PER_YEAR', price: { amount: 12.5, currency: 'USD' } },
      },
      durationValidationInYears: { min: 1, max: 10 },
    });
  });

  it('normalises what people type and offers fail- names like any other', async () => {
    expect((await availability('https://Shop-Front.IO/path')).body).toMatchObject({ domain: 'shop-front.io', availability: true, supported: true });
    expect((await availability('fail-registry.xyz')).body).toMatchObject({ domain: 'fail-registry.xyz', availability: true });
  });

  it('refuses a registered name, saying so', async () => {
    await service.services.ownership.mint({ name: 'taken-already.com', to: '0x0000000000000000000000000000000000000001', chainId: 31337, years: 1, now: new Date() });
    const reply = await availability('taken-already.com');
    expect(reply.body).toMatchObject({ availability: false, supported: true, reason: 'taken-already.com is already registered' });
    expect(reply.body.pricingDetails.registrationPrice.price.amount).toBe(12.5);
  });

  it('refuses a name with a pending order', async () => {
    const token = await client.signIn(TEST_KEYS[0]);
    expect((await client.call('requestFaucet', { body: {}, headers: client.withToken(token) })).status).toBe(200);
    const order = await client.signed(TEST_KEYS[0], 'registerDomain', { normalizedDomainName: 'on-order.net', durationInYears: 1 });
    expect(order.status).toBe(200);
    expect((await availability('on-order.net')).body).toMatchObject({ availability: false, supported: true, reason: 'on-order.net has a pending order' });
  });

  it('refuses reserved names', async () => {
    expect((await availability('google.com')).body).toMatchObject({ availability: false, supported: true, reason: 'google.com is reserved' });
  });

  it('says why an invalid name cannot be had', async () => {
    const reply = await availability('-bad-.com');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ domain: '-bad-.com', availability: false, supported: false, reason: 'A label cannot start or end with a hyphen' });
    expect(reply.body.pricingDetails).toBeUndefined();
    expect((await availability('justaword')).body.reason).toBe('Add an ending such as .com');
  });

  it('marks a TLD that is not sold as unsupported', async () => {
    const reply = await availability('something.museum');
    expect(reply.body).toMatchObject({ domain: 'something.museum', availability: false, supported: false });
    expect(reply.body.reason).toMatch(/\.museum names are not sold here/);
  });

  it('answers 400 with the field when the domain is missing', async () => {
    const reply = await client.call('checkAvailability', {});
    expect(reply.status).toBe(400);
    expect(reply.body.data.fieldErrors.domain).toBeDefined();
  });

  it('works with a credential too', async () => {
    const token = await client.signIn(TEST_KEYS[1]);
    const reply = await client.call('checkAvailability', { query: { domain: 'with-session.org' }, headers: client.withToken(token) });
    expect(reply.body).toMatchObject({ availability: true, pricingDetails: { registrationPrice: { price: { amount: 11 } } } });
  });
});

describe('GET /search/bulk-availability', () => {
  it('answers each name in the order asked', async () => {
    const reply = await client.call('checkBulkAvailability', { query: { domains: ['one-free.dev', 'google.com', 'bad_name.com', 'x.museum'] } });
    expect(reply.status).toBe(200);
    expect(reply.body.map((a: { domain: string; availability: boolean; supported: boolean }) => [a.domain, a.availability, a.supported])).toEqual([
      ['one-free.dev', true, true],
      ['google.com', false, true],
      ['bad_name.com', false, false],
      ['x.museum', false, false],
    ]);
  });

  it('takes 50 names and refuses 51 or none', async () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `bulk-${i}.com`);
    const fifty = await client.call('checkBulkAvailability', { query: { domains: names(50) } });
    expect(fifty.status).toBe(200);
    expect(fifty.body).toHaveLength(50);
    const many = await client.call('checkBulkAvailability', { query: { domains: names(51) } });
    expect(many.status).toBe(400);
    expect(many.body.data.fieldErrors.domains).toEqual(['At most 50 names']);
    expect((await client.call('checkBulkAvailability', {})).status).toBe(400);
  });
});

describe('GET /search/suggestions', () => {
  it('pages through deterministic variants of the query', async () => {
    const first = await client.call('getSuggestions', { query: { query: 'Coffee Shop', pageSize: 5 } });
    expect(first.status).toBe(200);
    expect(first.body.domains).toEqual(['coffee-shop.com', 'coffee-shop.net', 'coffee-shop.org', 'coffee-shop.io', 'coffee-shop.xyz']);
    expect(first.body).toMatchObject({ page: 1, nextPage: 2, pageSize: 5 });
    const { totalPages } = first.body;
    expect(totalPages).toBeGreaterThan(2);

    const last = await client.call('getSuggestions', { query: { query: 'Coffee Shop', pageSize: 5, page: totalPages } });
    expect(last.body).toMatchObject({ page: totalPages, totalPages, nextPage: null, pageSize: 5 });
    expect(last.body.domains.length).toBeGreaterThan(0);

    const again = await client.call('getSuggestions', { query: { query: 'Coffee Shop', pageSize: 5 } });
    expect(again.body).toEqual(first.body);
  });

  it('puts the typed ending first and offers prefixed and suffixed names', async () => {
    const reply = await client.call('getSuggestions', { query: { query: 'rocket.io', pageSize: 100 } });
    expect(reply.body.domains[0]).toBe('rocket.io');
    expect(reply.body.domains).toContain('getrocket.com');
    expect(reply.body.domains).toContain('rocket-app.io');
    expect(new Set(reply.body.domains).size).toBe(reply.body.domains.length);
  });

  it('defaults to 16 a page and refuses a page size over 100', async () => {
    const reply = await client.call('getSuggestions', { query: { query: 'tea' } });
    expect(reply.body.pageSize).toBe(16);
    expect(reply.body.domains).toHaveLength(16);
    const big = await client.call('getSuggestions', { query: { query: 'tea', pageSize: 101 } });
    expect(big.status).toBe(400);
    expect(big.body.data.fieldErrors.pageSize).toBeDefined();
    expect((await client.call('getSuggestions', { query: { query: 'tea', page: 0 } })).status).toBe(400);
  });

  it('answers an empty page for a query with nothing usable in it', async () => {
    const reply = await client.call('getSuggestions', { query: { query: '!!!' } });
    expect(reply.body).toEqual({ domains: [], page: 1, totalPages: 0, nextPage: null, pageSize: 16 });
  });
});
