import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/client.ts';
import { SignatureRejectedError } from '@/lib/signing/errors.ts';
import { checkoutTotals, noticesForError, registrationLines } from './checkout-view.ts';

const availability = { pricingDetails: { registrationPrice: { price: { amount: 12 } } } } as never;

describe('what the checkout shows', () => {
  it('totals valid years only, and says what credit is missing', () => {
    const range = { min: 1, max: 10 };
    expect(checkoutTotals({ availability, range, years: 2, balanceCents: 1000 })).toMatchObject({ validYears: true, total: 2400, missing: 1400 });
    expect(checkoutTotals({ availability, range, years: 11, balanceCents: 1000 })).toMatchObject({ validYears: false, total: undefined, missing: 0 });
    expect(checkoutTotals({ availability, range, years: 1, balanceCents: undefined })).toMatchObject({ total: 1200, missing: 0 });
  });

  it('words the signature with the records it creates and where the NFT goes', () => {
    const values = { years: 1, records: [{ type: 'A' as const, name: '@', rdata: '192.0.2.1', ttl: '3600' }], nftWallet: { custom: true, walletAddress: '', chainId: '1' } };
    expect(registrationLines({ domain: 'a.com', values, validYears: true, total: 1200 })).toEqual([
      'Register a.com for 1 year, paying $12.00 from your credit',
      'Create 1 DNS record once it is registered',
      'Send the domain NFT to … on chain 1',
    ]);
  });

  it('places a refused order: declined, short of balance, on its fields, or explained above Pay', () => {
    expect(noticesForError(new SignatureRejectedError(), 'a.com')).toEqual({ notices: { declined: true }, fieldErrors: [] });
    expect(noticesForError(new ApiError({ status: 402, code: 'PAYMENT_REQUIRED', message: 'Short by $3' }), 'a.com').notices).toEqual({ balance: 'Short by $3' });
    const invalid = new ApiError({ status: 422, code: 'INPUT_VALIDATION_FAILED', message: 'bad', fieldErrors: { durationInYears: ['Too long'], other: ['Odd'] }, formErrors: [] });
    expect(noticesForError(invalid, 'a.com')).toEqual({ notices: { form: ['other: Odd'] }, fieldErrors: [{ field: 'years', message: 'Too long' }] });
    const down = noticesForError(new ApiError({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'down' }), 'a.com');
    expect(down.fieldErrors).toEqual([]);
    expect(down.notices.form).toHaveLength(1);
  });
});
