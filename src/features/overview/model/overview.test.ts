import { describe, expect, it } from 'vitest';
import { apexInWords, daysFromNow, ownerInWords } from './overview.ts';

const now = Date.parse('2026-11-26T09:00:00Z');

describe('the domain overview in words', () => {
  it('says how far the expiry is, in whole days', () => {
    expect(daysFromNow('2027-11-26T09:00:00Z', now)).toBe('in 365 days');
    expect(daysFromNow('2026-11-27T10:00:00Z', now)).toBe('in 1 day');
    expect(daysFromNow('2026-11-26T20:00:00Z', now)).toBe('today');
    expect(daysFromNow('2026-11-26T08:00:00Z', now)).toBe('today');
    expect(daysFromNow('2026-11-23T08:00:00Z', now)).toBe('3 days ago');
  });

  it('names the owner as far as the wallet list tells', () => {
    expect(ownerInWords({ signedIn: false, loading: false, ownerAddress: undefined })).toBe('Sign in to see');
    expect(ownerInWords({ signedIn: true, loading: true, ownerAddress: undefined })).toBe('Checking…');
    expect(ownerInWords({ signedIn: true, loading: false, ownerAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })).toBe('You (0xf3…2266)');
    expect(ownerInWords({ signedIn: true, loading: false, ownerAddress: undefined })).toBe('Not this wallet');
  });

  it("names the holder the service answers, to anyone, and says when it is the signed-in account", () => {
    const holder = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    expect(ownerInWords({ signedIn: false, loading: false, ownerAddress: undefined, holder })).toBe('0x70…79C8');
    expect(ownerInWords({ signedIn: true, loading: true, ownerAddress: undefined, holder, you: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })).toBe('0x70…79C8, not this wallet');
    expect(ownerInWords({ signedIn: true, loading: false, ownerAddress: undefined, holder, you: holder.toLowerCase() })).toBe('You (0x70…79C8)');
  });

  it('says whether the apex answers', () => {
    expect(apexInWords({ status: 'NOERROR', addresses: ['192.0.2.1'] })).toEqual({ ok: true, words: 'Answers 192.0.2.1' });
    expect(apexInWords({ status: 'NOERROR', addresses: ['192.0.2.1', '192.0.2.2'] })).toEqual({ ok: true, words: 'Answers 192.0.2.1 and 1 more' });
    expect(apexInWords({ status: 'NOERROR', addresses: [] }).ok).toBe(false);
    expect(apexInWords({ status: 'NXDOMAIN', addresses: [] })).toEqual({ ok: false, words: 'DNS answers NXDOMAIN' });
  });
});
