import { describe, expect, it } from 'vitest';
import { parkingRecords } from '#core/dns/parking.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { assess, callFor, signedInWords, type DomainState } from './actions.ts';

const record = (zoneName: string, name: string, type: DnsRecord['type'], rdata: string, managedBy?: string): DnsRecord => ({
  id: crypto.randomUUID(), zoneName, name, type, class: 'IN', ttl: 60, rdata, metadata: managedBy ? { managed: true, managedBy } : null, createdAt: '', updatedAt: '',
});
const parked = (domain: string): DomainState => ({ domain, records: parkingRecords(domain).map((r) => record(domain, r.name, r.type, r.rdata, 'parking')), forwarding: null });
const forward = { kind: 'forward' as const, targetUrl: 'https://new.example/', statusCode: 308 as const, keepPath: true };

describe('planning park, unpark and forward', () => {
  it('parking a parked domain is already done; unparking it removes the four parking records', () => {
    expect(assess(callFor({ kind: 'park' }, 'p.com'), parked('p.com'))).toEqual({ diff: [], conflicts: [], applied: true });
    const unpark = assess(callFor({ kind: 'unpark' }, 'p.com'), parked('p.com'));
    expect(unpark.diff.map((d) => d.op)).toEqual(['-', '-', '-', '-']);
    expect(unpark.applied).toBe(false);
  });

  it('parking a forwarded domain says forwarding turns off', () => {
    const state: DomainState = { domain: 'f.com', records: [record('f.com', '@', 'A', '127.0.0.1', 'forwarding')], forwarding: { enabled: true, targetUrl: 'https://x.example/', statusCode: 301, keepPath: true } };
    expect(assess(callFor({ kind: 'park' }, 'f.com'), state).diff.at(-1)).toEqual({ op: '-', text: 'forwarding to https://x.example/ (parking turns it off)' });
  });

  it('forwarding signs every field, replaces parking, and flags a loop and an own apex address as conflicts', () => {
    const call = callFor(forward, 'p.com');
    expect(call.payload).toEqual({ normalizedDomainName: 'p.com', enabled: true, targetUrl: 'https://new.example/', statusCode: 308, keepPath: true });
    expect(signedInWords(call)).toBe('Forward p.com to https://new.example/, status 308 (SetForwarding)');
    const planned = assess(call, parked('p.com'));
    expect(planned.diff.filter((d) => d.op === '-')).toHaveLength(4);
    expect(planned.conflicts).toEqual([]);
    expect(assess(callFor({ ...forward, targetUrl: 'https://www.p.com/' }, 'p.com'), parked('p.com')).conflicts).toEqual([expect.stringMatching(/loop/)]);
    const own: DomainState = { domain: 'o.com', records: [record('o.com', '@', 'A', '192.0.2.1')], forwarding: null };
    expect(assess(callFor(forward, 'o.com'), own).conflicts).toEqual([expect.stringMatching(/@ A 192.0.2.1/)]);
  });

  it('forwarding already set as asked is done', () => {
    const state: DomainState = { domain: 'd.com', records: [], forwarding: { enabled: true, targetUrl: 'https://new.example/', statusCode: 308, keepPath: true } };
    expect(assess(callFor(forward, 'd.com'), state).applied).toBe(true);
  });
});

describe('planning DNSSEC on or off', () => {
  const unsigned: DomainState = { domain: 'u.com', records: [], forwarding: null, dnssec: false };
  const signed: DomainState = { ...unsigned, domain: 's.com', dnssec: true };

  it('signs one ToggleDnssec per domain with exactly the domain and the switch', () => {
    const call = callFor({ kind: 'dnssec', enabled: true }, 'u.com');
    expect(call).toEqual({ operation: 'toggleDnssec', payload: { normalizedDomainName: 'u.com', enabled: true } });
    expect(signedInWords(call)).toBe('Turn DNSSEC on for u.com (ToggleDnssec)');
    expect(signedInWords(callFor({ kind: 'dnssec', enabled: false }, 's.com'))).toBe('Turn DNSSEC off for s.com (ToggleDnssec)');
  });

  it('a zone already as asked is done; otherwise the plan says what appears or goes', () => {
    expect(assess(callFor({ kind: 'dnssec', enabled: true }, 's.com'), signed)).toEqual({ diff: [], conflicts: [], applied: true });
    expect(assess(callFor({ kind: 'dnssec', enabled: false }, 'u.com'), unsigned)).toEqual({ diff: [], conflicts: [], applied: true });
    const on = assess(callFor({ kind: 'dnssec', enabled: true }, 'u.com'), unsigned);
    expect(on.applied).toBe(false);
    expect(on.conflicts).toEqual([]);
    expect(on.diff[0]).toEqual({ op: '+', text: expect.stringMatching(/DNSKEY, CDS, CDNSKEY/) });
    const off = assess(callFor({ kind: 'dnssec', enabled: false }, 's.com'), signed);
    expect(off.diff.every((d) => d.op === '-')).toBe(true);
  });

  it('a service that does not say whether a zone is signed (production) leaves nothing to sign, and says why', () => {
    const production: DomainState = { domain: 'p.com', records: [], forwarding: null };
    const planned = assess(callFor({ kind: 'dnssec', enabled: true }, 'p.com'), production);
    expect(planned.applied).toBe(false);
    expect(planned.conflicts).toEqual([expect.stringMatching(/needs this project.s service/)]);
  });
});
