import { describe, expect, it } from 'vitest';
import { expiryBanner } from './expiry-banner.ts';

const base = { normalizedDomainName: 'a.com', expirationDate: '2027-01-01T00:00:00.000Z', graceEndsAt: '2027-01-31T00:00:00.000Z', redemptionEndsAt: '2027-03-02T00:00:00.000Z' };

describe('expiryBanner', () => {
  it('says nothing while the domain is active, or when the service gives no status (production)', () => {
    expect(expiryBanner({ ...base, status: 'active' })).toBeNull();
    expect(expiryBanner({ ...base, status: undefined })).toBeNull();
  });
  it('in grace: the dates, that DNS and editing still work, and Renew', () => {
    expect(expiryBanner({ ...base, status: 'grace' })).toEqual({
      tone: 'warning',
      title: 'Expired on 2027-01-01: in its grace period until 2027-01-31',
      works: expect.stringMatching(/^DNS still answers and you can still edit the records.*After 2027-01-31 only a holding page answers, and from 2027-03-02 anyone may register the name\.$/),
      action: 'Renew',
    });
  });
  it('in redemption: only the holding page, the release date, and Renew', () => {
    const model = expiryBanner({ ...base, status: 'redemption' })!;
    expect(model.tone).toBe('danger');
    expect(model.title).toBe('Expired on 2027-01-01: in redemption until 2027-03-02');
    expect(model.works).toMatch(/Only an "expired" holding page answers and records cannot be changed.*On 2027-03-02 the name is released/);
  });
});
