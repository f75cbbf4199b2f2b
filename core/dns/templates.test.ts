import { describe, expect, it } from 'vitest';
import { validateRecordName } from './names.ts';
import { validateRdata, txtFromWire } from './rdata.ts';
import { microsoftMxHost, RECORD_TEMPLATES, TemplateParamError, templateErrors, type RecordTemplate } from './templates.ts';
import { checkZoneChange } from './zone-rules.ts';

const ZONE = 'example.com';
const template = (id: string): RecordTemplate => {
  const found = RECORD_TEMPLATES.find((t) => t.id === id);
  if (!found) throw new Error(`no template ${id}`);
  return found;
};
/** Every parameter filled with its own example. */
const examples = (t: RecordTemplate) => Object.fromEntries(t.params.map((p) => [p.key, p.example]));
const rows = (records: Array<{ name: string; type: string; rdata: string }>) => records.map((r) => `${r.name} ${r.type} ${r.rdata}`);

describe('RECORD_TEMPLATES', () => {
  it.each(RECORD_TEMPLATES.map((t) => [t.id, t] as const))('%s builds records that pass every rule on an empty zone', (_id, t) => {
    for (const params of [examples(t), Object.fromEntries(t.params.filter((p) => p.required).map((p) => [p.key, p.example]))]) {
      const records = t.build(params, ZONE);
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) {
        expect(validateRdata(record.type, record.rdata), `${record.type} ${record.rdata}`).toEqual({ ok: true, value: record.rdata });
        expect(validateRecordName(record.name, ZONE)).toEqual({ ok: true, value: record.name });
        expect(record.ttl).toBeGreaterThan(0);
      }
      expect(checkZoneChange({ zoneName: ZONE, existing: [], change: { creates: records, updates: [], deletes: [] }, parked: false })).toEqual([]);
    }
  });

  it('gives every template a label, description and parameters with examples that pass their own checks', () => {
    expect(new Set(RECORD_TEMPLATES.map((t) => t.id)).size).toBe(RECORD_TEMPLATES.length);
    for (const t of RECORD_TEMPLATES) {
      expect(t.label).not.toBe('');
      expect(t.description).not.toBe('');
      expect(templateErrors(t, examples(t)), t.id).toEqual({});
    }
  });

  it('web host: the apex to the server and www as an alias of the apex', () => {
    expect(rows(template('web-host').build({ ipv4: '192.0.2.10' }, ZONE))).toEqual(['@ A 192.0.2.10', 'www CNAME example.com.']);
    expect(rows(template('web-host').build({ ipv4: '192.0.2.10', ipv6: '2001:DB8:0::10' }, ZONE))).toEqual([
      '@ A 192.0.2.10',
      '@ AAAA 2001:db8::10',
      'www CNAME example.com.',
    ]);
  });

  it('Google Workspace: smtp.google.com, or the classic five MX records', () => {
    expect(rows(template('google-workspace').build({}, ZONE))).toEqual(['@ MX 1 smtp.google.com.']);
    expect(rows(template('google-workspace').build({ verification: 'google-site-verification=abc123' }, ZONE))).toEqual([
      '@ MX 1 smtp.google.com.',
      '@ TXT "google-site-verification=abc123"',
    ]);
    expect(rows(template('google-workspace-classic').build({}, ZONE))).toEqual([
      '@ MX 1 aspmx.l.google.com.',
      '@ MX 5 alt1.aspmx.l.google.com.',
      '@ MX 5 alt2.aspmx.l.google.com.',
      '@ MX 10 alt3.aspmx.l.google.com.',
      '@ MX 10 alt4.aspmx.l.google.com.',
    ]);
  });

  it('Microsoft 365: MX on the zone name with dashes, autodiscover and SPF', () => {
    expect(microsoftMxHost('my.example.co')).toBe('my-example-co.mail.protection.outlook.com.');
    expect(rows(template('microsoft-365').build({}, 'Contoso.com.'))).toEqual([
      '@ MX 0 contoso-com.mail.protection.outlook.com.',
      'autodiscover CNAME autodiscover.outlook.com.',
      '@ TXT "v=spf1 include:spf.protection.outlook.com -all"',
    ]);
    expect(rows(template('microsoft-365').build({ mxHost: 'contoso01b.mail.protection.outlook.com' }, 'contoso.com'))[0]).toBe(
      '@ MX 0 contoso01b.mail.protection.outlook.com.',
    );
  });

  it('SPF: the senders given, then the policy for everyone else', () => {
    const [record] = template('spf').build({ include: '_spf.google.com, spf.protection.outlook.com', ip4: '192.0.2.10', mx: 'yes', all: '-all' }, ZONE);
    expect(txtFromWire(record.rdata)).toBe('v=spf1 mx ip4:192.0.2.10 include:_spf.google.com include:spf.protection.outlook.com -all');
    expect(txtFromWire(template('spf').build({}, ZONE)[0].rdata)).toBe('v=spf1 ~all');
  });

  it('DMARC: a policy and a report address at _dmarc', () => {
    expect(rows(template('dmarc').build({ rua: 'reports@example.com', policy: 'quarantine' }, ZONE))).toEqual([
      '_dmarc TXT "v=DMARC1; p=quarantine; rua=mailto:reports@example.com"',
    ]);
  });

  it.each([
    ['web-host', {}, 'ipv4', 'Server IPv4 address is required'],
    ['web-host', { ipv4: '300.1.1.1' }, 'ipv4', 'Enter an IPv4 address'],
    ['web-host', { ipv4: '192.0.2.1', ipv6: 'nope' }, 'ipv6', 'Enter an IPv6 address'],
    ['dmarc', {}, 'rua', 'E-mail address for reports is required'],
    ['dmarc', { rua: 'not-an-email' }, 'rua', 'Enter an e-mail address'],
    ['dmarc', { rua: 'a@example.com', policy: 'block' }, 'policy', 'Choose one of none, quarantine, reject'],
    ['spf', { all: 'all' }, 'all', 'Choose one of ~all, -all, ?all'],
    ['spf', { ip4: 'mail.example.com' }, 'ip4', 'List IPv4 addresses'],
    ['microsoft-365', { mxHost: 'mail.example.com' }, 'mxHost', '.mail.protection.outlook.com'],
  ])('%s with %j: %s says "%s"', (id, params, key, fragment) => {
    const t = template(id);
    expect(templateErrors(t, params)[key]).toContain(fragment);
    expect(() => t.build(params, ZONE)).toThrow(TemplateParamError);
  });
});
