import { describe, expect, it } from 'vitest';
import { txtToWire } from '#core/dns/rdata.ts';
import { buildMailSetup } from '#core/mail/providers.ts';
import type { DnsRecord } from '#core/wire/dns.ts';
import { EMPTY_DRAFT } from '@/features/records/index.ts';
import { withMailSetup } from './wizard.ts';

const at = (id: string, name: string, type: DnsRecord['type'], rdata: string, metadata?: Record<string, unknown>): DnsRecord =>
  ({ id, zoneName: 'example.com', name, type, rdata, ttl: 300, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...(metadata ? { metadata } : {}) }) as DnsRecord;

const fastmail = () => {
  const setup = buildMailSetup('example.com', 'fastmail', { dmarcPolicy: 'none', mtaSts: false, now: new Date('2026-11-26T00:00:00Z') });
  if (!setup.ok) throw new Error('fastmail needs no input');
  return setup.records;
};

describe('the wizard\u2019s change set', () => {
  it('on an empty zone adds every record', () => {
    const { draft, replaced } = withMailSetup(EMPTY_DRAFT, [], fastmail());
    expect(draft.creates.map((c) => `${c.record.name} ${c.record.type}`).sort()).toEqual(
      ['@ MX', '@ MX', '@ TXT', '_dmarc TXT', '_smtp._tls TXT', 'fm1._domainkey CNAME', 'fm2._domainkey CNAME', 'fm3._domainkey CNAME'].sort(),
    );
    expect(draft.updates).toEqual([]);
    expect(draft.deletes).toEqual([]);
    expect(replaced).toEqual([]);
  });

  it('replaces the old provider\u2019s MX, SPF and DMARC, keeps what is already right and every other record', () => {
    const zone = [
      at('mx-old-1', '@', 'MX', '1 smtp.google.com.'),
      at('mx-same', '@', 'MX', '10 in1-smtp.messagingengine.com.'),
      at('spf', '@', 'TXT', txtToWire('v=spf1 include:_spf.google.com ~all')),
      at('verify', '@', 'TXT', txtToWire('google-site-verification=keepme')),
      at('dmarc', '_dmarc', 'TXT', txtToWire('v=DMARC1; p=reject')),
      at('dkim-txt', 'fm1._domainkey', 'TXT', txtToWire('v=DKIM1; k=rsa; p=old')),
      at('www', 'www', 'A', '192.0.2.1'),
      at('parking', '@', 'TXT', txtToWire('v=spf1 -all'), { managed: true, managedBy: 'parking' }),
    ];
    const { draft, replaced } = withMailSetup(EMPTY_DRAFT, zone, fastmail());
    expect(replaced.map((r) => r.id).sort()).toEqual(['dkim-txt', 'dmarc', 'mx-old-1', 'spf']);
    expect(draft.updates.map((u) => `${u.id} → ${u.record.rdata}`).sort()).toEqual([
      `dmarc → ${txtToWire('v=DMARC1; p=none; rua=mailto:dmarc@example.com')}`,
      'mx-old-1 → 20 in2-smtp.messagingengine.com.',
      `spf → ${txtToWire('v=spf1 include:spf.messagingengine.com ?all')}`,
    ]);
    // A TXT where a CNAME goes: deleted, the CNAME added.
    expect(draft.deletes.map((d) => d.id)).toEqual(['dkim-txt']);
    expect(draft.creates.map((c) => `${c.record.name} ${c.record.type}`)).toContain('fm1._domainkey CNAME');
    expect(draft.creates.some((c) => c.record.type === 'MX' && c.record.rdata.startsWith('10 '))).toBe(false);
  });
});
