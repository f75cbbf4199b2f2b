import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { SignatureRejectedError, UnsignableRequestError } from '../signing/errors.ts';
import { explainError } from './explain.ts';

const forbidden = new ApiError({ status: 403, code: 'FORBIDDEN', message: 'Forbidden', data: { domain: 'example.com', owner: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' } });

describe('explainError', () => {
  it('names the wallet, the domain and the owner to switch to on a 403', () => {
    expect(explainError(forbidden, { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })).toEqual({
      title: 'This wallet (0xf3…2266) cannot change example.com',
      description: 'It belongs to 0x70…79C8. Switch to that wallet in your wallet app to make changes.',
    });
  });

  it('tells a stale signature apart from an ended session and a refused API key', () => {
    const with401 = (credential: ApiError['credential']) => explainError(new ApiError({ status: 401, code: 'UNAUTHORIZED', message: 'Unauthorized', credential }));
    expect(with401('signature').title).toBe('The signature was not accepted');
    expect(with401('signature').description).toMatch(/please sign again/);
    expect(with401('siwe').title).toBe('Your session has ended');
    expect(with401('api-key').title).toBe('The API key was not accepted');
  });

  it('says a domain in redemption has expired, in the service’s words; another 409 is a name taken', () => {
    const message = 'a.com is in redemption (expired on 2027-01-01): its records cannot be changed. Renew it, with the restore fee, before 2027-03-02 to bring them back.';
    const expired = new ApiError({ status: 409, code: 'CONFLICT', message, data: { status: 'redemption' } });
    expect(explainError(expired, { domain: 'a.com' })).toEqual({ title: 'a.com has expired', description: message });
    expect(explainError(new ApiError({ status: 409, code: 'CONFLICT', message: 'taken' }), { domain: 'a.com' }).title).toBe('a.com is no longer available');
  });

  it('says what the service cannot sign, and that nothing was sent', () => {
    expect(explainError(new UnsignableRequestError(['nftReceivingWallet.walletAddress']))).toEqual({
      title: 'This service cannot sign this change in full',
      description: "This service's signing types cannot sign nftReceivingWallet.walletAddress, so nothing was signed or sent. Set an API key in Settings to make this change.",
    });
  });

  it('words 402, 409, 429 and an unreachable service', () => {
    expect(explainError(new ApiError({ status: 402, code: 'PAYMENT_REQUIRED', message: 'x' })).title).toBe('Not enough balance');
    expect(explainError(new ApiError({ status: 409, code: 'CONFLICT', message: 'x' }), { domain: 'a.com' }).title).toBe('a.com is no longer available');
    expect(explainError(new ApiError({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'x', retryAfterSeconds: 7 })).description).toBe('Please wait 7 s and try again.');
    expect(explainError(new ApiError({ status: 0, code: 'NETWORK_ERROR', message: 'x' })).title).toBe('The service cannot be reached');
  });

  it('shows the first field error of a 400', () => {
    const invalid = new ApiError({ status: 400, code: 'BAD_REQUEST', message: 'Invalid input', fieldErrors: { rdata: ['Not an IPv4 address'] } });
    expect(explainError(invalid)).toEqual({ title: 'Please check what you entered', description: 'Not an IPv4 address' });
  });

  it('is calm about a declined signature', () => {
    expect(explainError(new SignatureRejectedError())).toMatchObject({ title: 'Signature declined' });
  });
});
