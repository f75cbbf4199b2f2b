import { describe, expect, it } from 'vitest';
import {
  BLANK_RECORD, checkoutSchema, initialYears, missingCents, placeServiceError, pricePerYearCents, registrationRequest,
  registrationSigningNotes, totalCents, yearsRange, type CheckoutValues,
} from './checkout-form.ts';
import { ACCEPTED_PRIMARY_TYPES, TYPE_REGISTRY, typesForMethod } from '#core/eip712/registry.ts';
import type { TypesForMethod } from '#core/wire/eip712.ts';
import { productionTypesForMethod } from '../../../test/fixtures/eip712-production-types.ts';

const range = { min: 1, max: 10 };
const schema = checkoutSchema({ domain: 'example.com', range });
const base: CheckoutValues = { years: 2, records: [], nftWallet: { custom: false, walletAddress: '', chainId: '' } };

function errorsOf(values: CheckoutValues): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('years', () => {
  it('accepts whole years within the name’s range', () => {
    expect(errorsOf(base)).toEqual({});
    expect(errorsOf({ ...base, years: 10 })).toEqual({});
  });
  it('refuses years outside the range or fractional, on the years field', () => {
    expect(errorsOf({ ...base, years: 0 }).years).toMatch(/At least 1 year/);
    expect(errorsOf({ ...base, years: 11 }).years).toMatch(/At most 10 years/);
    expect(errorsOf({ ...base, years: 1.5 }).years).toMatch(/whole number/);
  });
  it('takes the range from availability, else 1–10', () => {
    expect(yearsRange({ durationValidationInYears: { min: 2, max: 5 } })).toEqual({ min: 2, max: 5 });
    expect(yearsRange(undefined)).toEqual({ min: 1, max: 10 });
  });
  it('reads years from the URL, clamped into the range', () => {
    expect(initialYears('2', range)).toBe(2);
    expect(initialYears('99', range)).toBe(10);
    expect(initialYears('abc', range)).toBe(1);
    expect(initialYears(null, { min: 2, max: 5 })).toBe(2);
  });
});

describe('total and balance', () => {
  it('multiplies the yearly price in cents without float drift', () => {
    const perYear = pricePerYearCents({ pricingDetails: { registrationPrice: { type: 'PER_YEAR', price: { amount: 12.99, currency: 'USD' } }, renewalPrice: { type: 'PER_YEAR', price: { amount: 12.99, currency: 'USD' } } } });
    expect(perYear).toBe(1299);
    expect(totalCents(1299, 3)).toBe(3897);
    expect(pricePerYearCents({})).toBeUndefined();
  });
  it('says how much is missing, nothing when the balance covers it', () => {
    expect(missingCents(3897, 1000)).toBe(2897);
    expect(missingCents(3897, 3897)).toBe(0);
    expect(missingCents(1000, 5000)).toBe(0);
  });
});

describe('initial records', () => {
  it('accepts valid records and sends them in stored form', () => {
    const values = { ...base, records: [{ type: 'A' as const, name: '@', rdata: '192.0.2.1', ttl: '1h' }, { type: 'CNAME' as const, name: 'WWW', rdata: 'example.com', ttl: '300' }] };
    expect(errorsOf(values)).toEqual({});
    expect(registrationRequest('example.com', values)).toEqual({
      operationId: 'registerWithRecords',
      payload: {
        normalizedDomainName: 'example.com',
        durationInYears: 2,
        records: [
          { name: '@', type: 'A', rdata: '192.0.2.1', ttl: 3600 },
          { name: 'www', type: 'CNAME', rdata: 'example.com.', ttl: 300 },
        ],
      },
    });
  });
  it('puts each problem on its field', () => {
    const errors = errorsOf({
      ...base,
      records: [
        { ...BLANK_RECORD, rdata: '300.1.1.1' },
        { type: 'TXT', name: 'bad name!', rdata: '"hello"', ttl: '-5' },
        { ...BLANK_RECORD, type: 'MX', rdata: '' },
      ],
    });
    expect(Object.keys(errors).sort()).toEqual(['records.0.rdata', 'records.1.name', 'records.1.ttl', 'records.2.rdata']);
    expect(errors['records.2.rdata']).toBe('Record data is required');
  });
  it('applies the zone rules to the records together', () => {
    const errors = errorsOf({
      ...base,
      records: [
        { type: 'CNAME', name: 'www', rdata: 'a.example.net.', ttl: '300' },
        { type: 'TXT', name: 'www', rdata: '"x"', ttl: '300' },
      ],
    });
    expect(Object.keys(errors).length).toBeGreaterThan(0);
    expect(Object.keys(errors)[0]).toMatch(/^records\.[01]\./);
  });
  it('uses registerDomain without records, with the receiving wallet when chosen', () => {
    const values = { ...base, nftWallet: { custom: true, walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: '8453' } };
    expect(errorsOf(values)).toEqual({});
    expect(registrationRequest('example.com', values)).toEqual({
      operationId: 'registerDomain',
      payload: { normalizedDomainName: 'example.com', durationInYears: 2, nftReceivingWallet: { walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: 8453 } },
    });
  });
  it('refuses a receiving wallet that is not an address', () => {
    const errors = errorsOf({ ...base, nftWallet: { custom: true, walletAddress: '0x123', chainId: '' } });
    expect(Object.keys(errors).sort()).toEqual(['nftWallet.chainId', 'nftWallet.walletAddress']);
  });
});

describe('registrationSigningNotes', () => {
  const answer = (of: (m: string) => TypesForMethod) => ({ registerDomain: of('registerDomain'), registerWithRecords: of('registerWithRecords') });
  const local = answer((m) => typesForMethod(TYPE_REGISTRY, ACCEPTED_PRIMARY_TYPES, m) as TypesForMethod);
  const production = answer(productionTypesForMethod);
  const toWallet = registrationRequest('example.com', { ...base, nftWallet: { custom: true, walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', chainId: '8453' } });
  const withRecords = registrationRequest('example.com', { ...base, records: [{ type: 'A', name: '@', rdata: '192.0.2.1', ttl: '300' }] });

  it('says nothing where the local types sign all of it', () => {
    for (const request of [toWallet, withRecords, registrationRequest('example.com', base)]) expect(registrationSigningNotes(request, local)).toEqual({ lines: [], cannot: null });
  });
  it("refuses before the wallet opens where production's nested wallet struct signs chainId alone", () => {
    expect(registrationSigningNotes(toWallet, production).cannot).toBe(
      "This service's signing types cannot sign nftReceivingWallet.walletAddress (where the NFT goes), so nothing will be signed or sent. Let the NFT go to the wallet you sign with, or set an API key in Settings.",
    );
    expect(registrationSigningNotes(registrationRequest('example.com', base), production)).toEqual({ lines: [], cannot: null });
  });
  it('sends a registration with records with the sign-in where production publishes no type for it', () => {
    expect(registrationSigningNotes(withRecords, production)).toEqual({ lines: ['This service publishes no signing type for this registration: it is sent with your sign-in instead of a signature.'], cannot: null });
  });
  it('says nothing before the types are known', () => {
    expect(registrationSigningNotes(toWallet, {})).toEqual({ lines: [], cannot: null });
  });
});

describe('service errors', () => {
  const err = (status: number, fieldErrors: Record<string, string[]> = {}, message = 'm') => ({ status, message, fieldErrors, formErrors: [] });
  it('puts 402 on the balance and 409 on the name', () => {
    expect(placeServiceError(err(402))).toEqual([{ place: 'balance', message: 'm' }]);
    expect(placeServiceError(err(409))).toEqual([{ place: 'domain', message: 'm' }]);
  });
  it('maps field paths onto the form', () => {
    expect(placeServiceError(err(400, { durationInYears: ['Too long'], 'records.2.rdata': ['Bad IP'] }))).toEqual([
      { field: 'years', message: 'Too long' },
      { field: 'records.2.rdata', message: 'Bad IP' },
    ]);
  });
});
