import { describe, expect, it } from 'vitest';
import { TYPE_REGISTRY } from './registry.ts';
import { integerProblem, signedValueProblems } from './signed-values.ts';

describe('signedValueProblems', () => {
  it('finds every signed field absent, at any depth, in struct order', () => {
    const payload = {
      normalizedDomainName: 'a.com',
      records: [{ name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 60, comment: '', tags: [] }, { type: 'A', rdata: '192.0.2.2' }],
    };
    expect(signedValueProblems(TYPE_REGISTRY, 'RegisterDomainWithRecords', payload)).toEqual({
      missing: ['durationInYears', 'records.1.name', 'records.1.ttl', 'records.1.comment', 'records.1.tags'],
      invalid: [],
    });
    expect(signedValueProblems(TYPE_REGISTRY, 'InstantRegisterDomain', { normalizedDomainName: 'a.com', durationInYears: 1, nftReceivingWallet: { walletAddress: '0x1' } }).missing).toEqual([
      'nftReceivingWallet.chainId',
    ]);
    // An explicit undefined is absent too: JSON would not carry it.
    expect(signedValueProblems(TYPE_REGISTRY, 'RecordSelect', { id: undefined, zoneName: 'a.com' }).missing).toEqual(['id']);
  });

  it('takes empty values as the values they are', () => {
    expect(signedValueProblems(TYPE_REGISTRY, 'UpdateDnsRecord', { id: 'x', zoneName: 'a.com', name: '', rdata: '', ttl: 0 })).toEqual({ missing: [], invalid: [] });
  });

  it('names each value its type cannot hold, in the same pass', () => {
    const payload = { zoneName: 7, records: [{ name: 'a', type: 'A', rdata: 'x', ttl: -1 }, { name: 'b', type: 'A', rdata: 'x', ttl: '1.5' }], extra: 1 };
    expect(signedValueProblems(TYPE_REGISTRY, 'CreateRecords', payload).invalid).toEqual([
      { path: 'zoneName', message: 'must be text' },
      { path: 'records.0.ttl', message: 'cannot be negative' },
      { path: 'records.1.ttl', message: 'must be a whole number' },
    ]);
    expect(signedValueProblems(TYPE_REGISTRY, 'CreateRecords', { zoneName: 'a.com', records: 'all' }).invalid).toEqual([{ path: 'records', message: 'must be a list' }]);
    expect(signedValueProblems(TYPE_REGISTRY, 'ParkDomain', { normalizedDomainName: 'a.com', overrideExistingRecords: 'yes' }).invalid).toEqual([
      { path: 'overrideExistingRecords', message: 'must be true or false' },
    ]);
    expect(signedValueProblems(TYPE_REGISTRY, 'InstantRegisterDomain', { normalizedDomainName: 'a.com', durationInYears: 1, nftReceivingWallet: null }).invalid).toEqual([
      { path: 'nftReceivingWallet', message: 'must be an object' },
    ]);
  });
});

describe('integerProblem', () => {
  it('holds each integer type to its width', () => {
    const max256 = (2n ** 256n - 1n).toString();
    expect(integerProblem('uint256', max256)).toBeNull();
    expect(integerProblem('uint256', `${max256.slice(0, -1)}6`)).toMatch(/above the largest uint256 \(2\^256-1\)/);
    expect(integerProblem('uint', max256)).toBeNull();
    expect(integerProblem('uint8', 255)).toBeNull();
    expect(integerProblem('uint8', 256)).toBe('is above the largest uint8 (255)');
    expect(integerProblem('int8', -128)).toBeNull();
    expect(integerProblem('int8', '-129')).toBe('is below the smallest int8 (-128)');
    expect(integerProblem('int8', 128)).toBe('is above the largest int8 (127)');
    expect(integerProblem('uint32', -0)).toBeNull();
  });

  it('refuses what is not a whole number', () => {
    expect(integerProblem('uint256', '-1')).toBe('cannot be negative');
    expect(integerProblem('uint256', 0.5)).toBe('must be a whole number');
    expect(integerProblem('uint256', '2.0')).toBe('must be a whole number');
    expect(integerProblem('uint256', Infinity)).toBe('must be a finite number');
    expect(integerProblem('uint256', '0x10')).toBe('must be a number (digits only)');
    expect(integerProblem('uint256', ' 1')).toBe('must be a number (digits only)');
    expect(integerProblem('uint256', null)).toBe('must be a number');
    expect(integerProblem('string', -1)).toBeNull();
  });
});
