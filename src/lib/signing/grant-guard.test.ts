import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { accountFactKey, recordsKey } from '../query-keys.ts';
import { OutsideGrantError } from './errors.ts';
import { refuseOutsideGrant } from './grant-guard.ts';

const me = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
function withShared(role: 'viewer' | 'editor' | 'manager', names: string[], types: string[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(accountFactKey(me, 'domains', 'shared'), [{ normalizedDomainName: 'example.com', role, names, types, expiresAt: '2027-01-01T00:00:00.000Z', grantedBy: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }]);
  return queryClient;
}

describe("a grantee's write is checked against the grant before the wallet opens", () => {
  it('lets a write within the grant through, and refuses one outside it in words', () => {
    const q = withShared('editor', ['www'], ['A', 'AAAA']);
    expect(() => refuseOutsideGrant(q, me, 'createDnsRecord', { zoneName: 'example.com', name: 'www', type: 'A', rdata: '192.0.2.1', ttl: 300 })).not.toThrow();
    expect(() => refuseOutsideGrant(q, me, 'createDnsRecord', { zoneName: 'example.com', name: 'www', type: 'MX', rdata: '10 mail.example.net.', ttl: 300 })).toThrow(
      new OutsideGrantError('Your grant covers A and AAAA under www only: MX at www is outside it. Nothing was signed or sent.'),
    );
    expect(() => refuseOutsideGrant(q, me, 'batchCreateDnsRecords', { zoneName: 'example.com', records: [{ name: 'www', type: 'A' }, { name: 'api', type: 'A' }] })).toThrow(/A at api is outside it/);
  });

  it("refuses a change or delete of a record outside the grant, as the records list last read it", () => {
    const q = withShared('editor', ['www'], ['A']);
    const mx = { id: 'mx1', zoneName: 'example.com', name: '@', type: 'MX', class: 'IN', ttl: 300, rdata: '10 mail.example.net.', metadata: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
    const www = { ...mx, id: 'a1', name: 'www', type: 'A', rdata: '192.0.2.1' };
    q.setQueryData(recordsKey('example.com'), [mx, www]);
    expect(() => refuseOutsideGrant(q, me, 'deleteDnsRecord', { zoneName: 'example.com', id: 'mx1' })).toThrow(/MX at @ is outside it/);
    expect(() => refuseOutsideGrant(q, me, 'batchDeleteDnsRecords', { zoneName: 'example.com', recordsIds: ['a1', 'mx1'] })).toThrow(/MX at @ is outside it/);
    expect(() => refuseOutsideGrant(q, me, 'updateDnsRecord', { zoneName: 'example.com', id: 'mx1', name: 'www', type: 'A', rdata: '192.0.2.9', ttl: 300 })).toThrow(/MX at @ is outside it/);
    expect(() => refuseOutsideGrant(q, me, 'batchUpdateDnsRecords', { zoneName: 'example.com', records: [{ id: 'a1', name: 'api' }] })).toThrow(/A at api is outside it/);
    expect(() => refuseOutsideGrant(q, me, 'batchUpdateDnsRecords', { zoneName: 'example.com', records: [{ id: 'a1', rdata: '192.0.2.7' }] })).not.toThrow();
    expect(() => refuseOutsideGrant(q, me, 'deleteDnsRecord', { zoneName: 'example.com', id: 'a1' })).not.toThrow();
  });

  it('refuses what the role may not do, and the owner\u2019s own operations', () => {
    expect(() => refuseOutsideGrant(withShared('viewer', [], []), me, 'createDnsRecord', { zoneName: 'example.com', name: 'www', type: 'A' })).toThrow(/this needs the editor role/);
    expect(() => refuseOutsideGrant(withShared('editor', [], []), me, 'toggleDnssec', { normalizedDomainName: 'example.com', enabled: true })).toThrow(/this needs the manager role/);
    expect(() => refuseOutsideGrant(withShared('manager', [], []), me, 'setAutoRenew', { normalizedDomainName: 'example.com', enabled: true, durationInYears: 1 })).toThrow(/Only the owner/);
    expect(() => refuseOutsideGrant(withShared('manager', [], []), me, 'grantZoneAccess', { zoneName: 'example.com', grantee: me })).toThrow(/Only the owner/);
  });

  it('lets any grantee give their grant up, a viewer too', () => {
    expect(() => refuseOutsideGrant(withShared('viewer', [], []), me, 'revokeZoneAccess', { zoneName: 'example.com', grantId: 'g1' })).not.toThrow();
  });

  it('leaves a wallet that holds no grant for the zone (its owner) to the service', () => {
    const q = withShared('viewer', [], []);
    expect(() => refuseOutsideGrant(q, me, 'createDnsRecord', { zoneName: 'other.com', name: 'www', type: 'A' })).not.toThrow();
    expect(() => refuseOutsideGrant(new QueryClient(), me, 'createDnsRecord', { zoneName: 'example.com', name: 'www', type: 'A' })).not.toThrow();
  });
});
