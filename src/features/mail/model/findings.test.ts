import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '#core/wire/dns.ts';
import type { MailFinding, MailFix } from '#core/wire/mail.ts';
import { EMPTY_DRAFT } from '@/features/records/index.ts';
import { byTopic, withFix, worst } from './findings.ts';

const stored = (over: Partial<DnsRecord>): DnsRecord => ({ id: 'r1', zoneName: 'mail.com', name: '@', type: 'TXT', class: 'IN', ttl: 600, rdata: '"v=spf1 +all"', metadata: null, createdAt: '', updatedAt: '', ...over });
const dmarcMissing: MailFinding & { fix: MailFix } = { id: 'dmarc-missing', severity: 'error', message: 'none', fix: { name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none; rua=mailto:dmarc@mail.com"' } };
const passAll: MailFinding & { fix: MailFix } = { id: 'spf-pass-all', severity: 'error', record: 'v=spf1 +all', message: '+all', fix: { name: '@', type: 'TXT', rdata: '"v=spf1 ~all"' } };

describe('mail findings', () => {
  it('a missing record becomes an addition to the change set, once', () => {
    const draft = withFix(withFix(EMPTY_DRAFT, [], dmarcMissing), [], dmarcMissing);
    expect(draft.creates.map((c) => c.record)).toEqual([{ name: '_dmarc', type: 'TXT', rdata: '"v=DMARC1; p=none; rua=mailto:dmarc@mail.com"', ttl: 3600 }]);
    expect(draft.updates).toEqual([]);
  });

  it('a fix of a stored record (an SPF ending in +all) is an edit of that record, keeping its TTL', () => {
    const draft = withFix(EMPTY_DRAFT, [stored({ id: 'other', rdata: '"hello"' }), stored({})], passAll);
    expect(draft.creates).toEqual([]);
    expect(draft.updates).toEqual([{ key: 'u:r1', id: 'r1', record: { name: '@', type: 'TXT', rdata: '"v=spf1 ~all"', ttl: 600 } }]);
  });

  it('groups findings by topic in the panel\u2019s order and names the worst severity', () => {
    const findings: MailFinding[] = [
      { id: 'tls-rpt-missing', severity: 'warning', message: 'a' },
      { id: 'spf-ok', severity: 'ok', message: 'b' },
      { id: 'mta-sts-missing', severity: 'warning', message: 'c' },
      dmarcMissing,
    ];
    expect(byTopic(findings).map((g) => [g.topic.title, g.findings.map((f) => f.id)])).toEqual([
      ['SPF', ['spf-ok']],
      ['DMARC', ['dmarc-missing']],
      ['MTA-STS', ['mta-sts-missing']],
      ['TLS reports (TLS-RPT)', ['tls-rpt-missing']],
    ]);
    expect(worst(findings)).toBe('error');
    expect(worst(findings.filter((f) => f.severity !== 'error'))).toBe('warning');
    expect(worst([{ id: 'spf-ok', severity: 'ok', message: '' }])).toBe('ok');
  });
});
