import { describe, expect, it } from 'vitest';
import { grantInWords, nameCovered, outOfScope, roleAtLeast, scopeInWords } from './scope.ts';
import { roleNeeded } from './role.ts';

describe('what a grant or a key covers', () => {
  it('a name covers itself; *.x every name below x but not x; * every name below the apex; [] every name', () => {
    expect(nameCovered(['www'], 'www')).toBe(true);
    expect(nameCovered(['www'], 'WWW.')).toBe(true);
    expect(nameCovered(['www'], 'a.www')).toBe(false);
    expect(nameCovered(['*.dev'], 'a.dev')).toBe(true);
    expect(nameCovered(['*.dev'], 'b.a.dev')).toBe(true);
    expect(nameCovered(['*.dev'], '*.dev')).toBe(true);
    expect(nameCovered(['*.dev'], 'dev')).toBe(false);
    expect(nameCovered(['*.dev'], 'xdev')).toBe(false);
    expect(nameCovered(['*'], 'www')).toBe(true);
    expect(nameCovered(['*'], '@')).toBe(false);
    expect(nameCovered([], '@')).toBe(true);
  });

  it('finds the first record outside a scope, before or after', () => {
    const scope = { names: ['www'], types: ['A', 'AAAA'] };
    expect(outOfScope(scope, [{ name: 'www', type: 'A' }, null, { name: 'www', type: 'AAAA' }])).toBeNull();
    expect(outOfScope(scope, [{ name: 'www', type: 'A' }, { name: 'www', type: 'MX' }])).toBe('MX at www');
    expect(outOfScope(scope, [{ name: 'api', type: 'A' }])).toBe('A at api');
  });

  it('says a grant in words', () => {
    expect(scopeInWords({ names: ['www', 'api'], types: ['A', 'AAAA'] })).toBe('A and AAAA under www and api only');
    expect(scopeInWords({ names: [], types: [] })).toBe('every type at every name');
    expect(grantInWords({ grantee: '0xab00000000000000000000000000000000000cd1', role: 'editor', names: ['www', 'api'], types: ['A', 'AAAA'], expiresAt: '2027-03-31T23:59:59Z', zoneName: 'example.com' })).toBe(
      '0xab…0cd1 may add, change and delete records (A and AAAA under www and api only) of example.com until 31 March 2027',
    );
  });

  it('roles: what each operation needs, from its declaration', () => {
    expect(roleNeeded('createDnsRecord')).toBe('editor');
    expect(roleNeeded('batchDeleteDnsRecords')).toBe('editor');
    expect(roleNeeded('toggleDnssec')).toBe('manager');
    expect(roleNeeded('setForwarding')).toBe('manager');
    expect(roleNeeded('parkDomain')).toBe('manager');
    expect(roleNeeded('grantZoneAccess')).toBeNull();
    expect(roleNeeded('setAutoRenew')).toBeNull();
    expect(roleNeeded('renewDomain')).toBeNull();
    expect(roleAtLeast('manager', 'editor')).toBe(true);
    expect(roleAtLeast('viewer', 'editor')).toBe(false);
  });
});
