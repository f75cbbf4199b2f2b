import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import { DEFAULT_ENS_RESOLVER, ensProblems, ensRdata, ensSteps, findEnsRecord } from './ens-record.ts';

const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const at = '2026-01-01T00:00:00.000Z';
const txt = (id: string, name: string, rdata: string, metadata: unknown = null): DnsRecord => ({ id, zoneName: 'example.com', name, type: 'TXT', class: 'IN', ttl: 3600, rdata, metadata, createdAt: at, updatedAt: at });

describe('the ENS1 record (ENSIP-17)', () => {
  it('is one TXT string at the apex naming the resolver and the owner', () => {
    expect(ensRdata({ resolver: DEFAULT_ENS_RESOLVER, address: OWNER })).toBe(`"ENS1 dnsname.ens.eth ${OWNER}"`);
    expect(ensProblems({ resolver: DEFAULT_ENS_RESOLVER, address: OWNER })).toEqual({});
    expect(ensProblems({ resolver: OWNER, address: OWNER })).toEqual({});
    expect(Object.keys(ensProblems({ resolver: 'not a name', address: '0x12' }))).toEqual(['resolver', 'address']);
  });

  it('is found among the zone records: an apex TXT someone wrote, its first string starting ENS1', () => {
    const zone = [txt('1', '@', '"v=spf1 -all"'), txt('2', 'www', `"ENS1 dnsname.ens.eth ${OWNER}"`), txt('3', '@', `"ENS1 resolver.eth ${OWNER}" "more"`)];
    expect(findEnsRecord(zone)).toEqual({ record: zone[2], target: { resolver: 'resolver.eth', address: OWNER } });
    expect(findEnsRecord(zone.slice(0, 2))).toBeNull();
    expect(findEnsRecord([txt('4', '@', `"ENS1 dnsname.ens.eth ${OWNER}"`, { managed: true })])).toBeNull();
  });

  it('says where each step stands: the record, DNSSEC, and the DS at the parent, which is never known here', () => {
    const wanted = { resolver: DEFAULT_ENS_RESOLVER, address: OWNER };
    const none = ensSteps({ record: null, wanted, dnssec: false, domain: 'example.com', localService: false });
    expect(none.map((s) => s.state)).toEqual(['missing', 'missing', 'unknown']);
    expect(none[2].words).toMatch(/cannot see \.com\. Add the DS record shown above at your registrar/);
    const set = ensSteps({ record: { target: wanted }, wanted, dnssec: true, domain: 'example.com', localService: true });
    expect(set.map((s) => s.state)).toEqual(['done', 'done', 'unknown']);
    expect(set[0].words).toBe(`Present: ENS1 dnsname.ens.eth ${OWNER}`);
    expect(ensSteps({ record: null, wanted, dnssec: null, domain: 'example.com', localService: true })[1].state).toBe('unknown');
  });
});
