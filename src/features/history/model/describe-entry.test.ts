import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { HistoryEntry } from '#core/wire/history.ts';
import { changeLines, entryTitle, filterEntries, forwardingChange, howSigned, NO_FILTER, settingLines, whoInWords } from './describe-entry.ts';

const AT = '2026-11-25T10:00:00.000Z';
const rec = (id: string, name: string, type: DnsRecord['type']): DnsRecord => ({ id, zoneName: 'example.com', name, type, class: 'IN', ttl: 300, rdata: type === 'MX' ? '10 mx.example.net.' : '192.0.2.1', metadata: null, createdAt: AT, updatedAt: AT });
const base: HistoryEntry = {
  id: '1', zoneName: 'example.com', serial: 2, at: AT, operation: 'createDnsRecord',
  actor: { wallet: '0x1111111111111111111111111111111111111111', account: null, via: 'eip712' },
  changes: [{ op: 'create', before: null, after: rec('w', 'www', 'A') }],
  signed: { domain: { name: 'Namefi Local', version: '1' }, primaryType: 'CreateTypedDnsRecordEnvelope', types: {}, envelope: {}, signature: `0x${'11'.repeat(65)}`, signer: '0x1111111111111111111111111111111111111111' },
};
const mail: HistoryEntry = { ...base, id: '2', operation: 'batchDeleteDnsRecords', changes: [{ op: 'delete', before: rec('m', 'mail', 'MX'), after: null }, { op: 'delete', before: rec('w', 'www', 'A'), after: null }] };
const parked: HistoryEntry = { ...base, id: '3', operation: 'toggleDomainParking', changes: [], parking: { before: false, after: true } };

describe('history in words', () => {
  it('says what, who and how', () => {
    expect(entryTitle(base)).toBe('Added a record');
    expect(entryTitle(mail)).toBe('Deleted records (2)');
    expect(entryTitle(parked)).toBe('Parked the domain');
    expect(whoInWords({ ...base, actor: { ...base.actor, account: '0x2222222222222222222222222222222222222222' } })).toBe('0x11…1111 for the account 0x22…2222');
    expect(howSigned(base)).toBe('signed (EIP-712, CreateTypedDnsRecord)');
    expect(howSigned({ ...base, signed: undefined, actor: { ...base.actor, via: 'api-key', apiKeyId: '8a1f0c2e-0000-4000-8000-000000000000' } })).toBe('with an API key (8a1f0c2e), no signature kept');
    expect(howSigned({ ...base, signed: undefined, actor: { ...base.actor, via: 'order' } })).toBe('applied when the registration order finished');
    expect(howSigned({ ...base, signed: undefined, actor: { ...base.actor, via: 'api-key', apiKeyId: '8a1f0c2e-0000-4000-8000-000000000000', client: 'mcp' } })).toBe(
      'with an API key (8a1f0c2e), no signature kept, through MCP (an AI agent)',
    );
    expect(howSigned({ ...base, actor: { ...base.actor, client: 'mcp' } })).toBe('signed (EIP-712, CreateTypedDnsRecord), through MCP (an AI agent)');
  });

  it('names the door a key’s change came through (DynDNS2)', () => {
    const dyndns: HistoryEntry = { ...base, operation: 'dynDnsUpdate', signed: undefined, actor: { ...base.actor, via: 'api-key', apiKeyId: '8a1f0c2e-0000-4000-8000-000000000000', client: 'dyndns2' } };
    expect(entryTitle(dyndns)).toBe('Set an address by DynDNS2');
    expect(howSigned(dyndns)).toBe('with an API key (8a1f0c2e), no signature kept, through DynDNS2 (ddclient or a router)');
  });

  it("says the service's own change as the service, with why", () => {
    const renewal: HistoryEntry = { ...base, operation: 'renewDnssecSignatures', changes: [], dnssec: { before: true, after: true }, signed: undefined, actor: { wallet: '', account: null, via: 'service', reason: 'DNSSEC signatures renewed before they lapse' } };
    expect(entryTitle(renewal)).toBe('Renewed the DNSSEC signatures');
    expect(whoInWords(renewal)).toBe('The service');
    expect(howSigned(renewal)).toBe('made by the service: DNSSEC signatures renewed before they lapse');
  });

  it('says a transfer read from the chain: to whom, by whom, on the chain, with the transaction', () => {
    const from = '0x1234000000000000000000000000000000005678';
    const to = '0xab00000000000000000000000000000000000ccd';
    const txHash = `0x${'9f'.repeat(32)}`;
    const sent: HistoryEntry = { ...base, operation: 'transfer', changes: [], signed: undefined, actor: { wallet: from, account: null, via: 'chain' }, transfer: { from, to, txHash, blockNumber: 42 } };
    expect(entryTitle(sent)).toBe('Sent to 0xab…0ccd by 0x12…5678 on the chain');
    expect(whoInWords(sent)).toBe('0x12…5678');
    expect(howSigned(sent)).toBe('a transaction on the chain (0x9f9f9f…9f9f9f), read by the service');
    expect(settingLines(sent)).toEqual([`Owner: ${from} → ${to}, in transaction ${txHash} (block 42). Records, DNSSEC and forwarding stayed; auto-renew was switched off.`]);
  });

  it('titles a forwarding change by forwarding, even when it unparked the domain, and says its before and after', () => {
    const off = { normalizedDomainName: 'example.com', enabled: false, targetUrl: '', statusCode: 301 as const, keepPath: true };
    const on = { ...off, enabled: true, targetUrl: 'https://example.net/landing', statusCode: 302 as const };
    const forwarded: HistoryEntry = { ...base, operation: 'setForwarding', changes: [], parking: { before: true, after: false }, forwarding: { before: off, after: on } };
    expect(entryTitle(forwarded)).toBe('Forwarded to https://example.net/landing');
    expect(forwardingChange(forwarded)).toBe('Forwarding: off → to https://example.net/landing (302, keeping the path)');
    const stopped: HistoryEntry = { ...forwarded, parking: undefined, forwarding: { before: { ...on, keepPath: false }, after: { ...on, enabled: false } } };
    expect(entryTitle(stopped)).toBe('Stopped forwarding');
    expect(forwardingChange(stopped)).toBe('Forwarding: to https://example.net/landing (302, dropping the path) → off');
    expect(forwardingChange(base)).toBeNull();
    expect(settingLines(forwarded)).toEqual(['Parking: on → off', 'Forwarding: off → to https://example.net/landing (302, keeping the path)']);
    expect(settingLines({ ...base, changes: [], dnssec: { before: false, after: true } })).toEqual(['DNSSEC: off → on']);
    expect(settingLines(base)).toEqual([]);
  });

  it('filters by name, type and one record, keeping every entry without a filter', () => {
    const all = [parked, mail, base];
    expect(filterEntries(all, NO_FILTER)).toEqual(all);
    expect(filterEntries(all, { ...NO_FILTER, type: 'MX' }).map((e) => e.id)).toEqual(['2']);
    expect(filterEntries(all, { ...NO_FILTER, name: 'WW' }).map((e) => e.id)).toEqual(['2', '1']);
    expect(filterEntries(all, { ...NO_FILTER, recordId: 'm' }).map((e) => e.id)).toEqual(['2']);
    expect(filterEntries(all, { ...NO_FILTER, recordId: 'w', type: 'MX' })).toEqual([]);
  });
});

describe('record notes in a diff', () => {
  it('a history diff shows a comment or tag change', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const record = { id: 'r', zoneName: 'a.com', name: 'www', type: 'A' as const, class: 'IN', ttl: 300, rdata: '192.0.2.1', metadata: null, createdAt: at, updatedAt: at };
    expect(changeLines({ op: 'update', before: { ...record, comment: '', tags: ['prod'] }, after: { ...record, comment: 'edge', tags: ['prod', 'cdn'] } })).toEqual([
      { sign: '-', text: 'www 300 A 192.0.2.1 ; [tags: prod]' },
      { sign: '+', text: 'www 300 A 192.0.2.1 ; edge [tags: prod, cdn]' },
    ]);
  });
});
