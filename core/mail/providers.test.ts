import { describe, expect, it } from 'vitest';
import { txtFromWire } from '../dns/rdata.ts';
import { buildMailSetup, MAIL_PROVIDERS, type MailProviderId, type MailSetupInput } from './providers.ts';

/*
 * Each provider against the values it publishes for a custom domain (its set-up page, linked in MAIL_PROVIDERS):
 * Google https://support.google.com/a/answer/140034 (MX smtp.google.com since 2023) and /answer/10684623 (SPF),
 * Microsoft https://learn.microsoft.com/microsoft-365/admin/get-help-with-domains/create-dns-records-at-any-dns-hosting-provider
 * and .../defender-office-365/email-authentication-dkim-configure (selector CNAMEs), Fastmail's manual DNS
 * configuration, Proton's custom-domain guide, Zoho's email delivery and SPF pages.
 */
const ZONE = 'example.com';
const KEY = `MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA${'q'.repeat(300)}IDAQAB`;
const NOW = new Date('2026-11-26T15:30:00Z');
const base: MailSetupInput = { dmarcPolicy: 'none', mtaSts: true, now: NOW };

function records(provider: MailProviderId, extra: Partial<MailSetupInput> = {}) {
  const setup = buildMailSetup(ZONE, provider, { ...base, ...extra });
  if (!setup.ok) throw new Error(JSON.stringify(setup.errors));
  return setup.records.map((r) => `${r.name} ${r.type} ${r.type === 'TXT' ? txtFromWire(r.rdata) : r.rdata}`);
}

const common = [
  '_dmarc TXT v=DMARC1; p=none; rua=mailto:dmarc@example.com',
  '_smtp._tls TXT v=TLSRPTv1; rua=mailto:tls-reports@example.com',
  '_mta-sts TXT v=STSv1; id=20261126153000',
];

describe('the mail-provider wizard', () => {
  it('Google Workspace: smtp.google.com, _spf.google.com, the console\u2019s DKIM key at google._domainkey', () => {
    expect(records('google', { dkimKey: `"v=DKIM1; k=rsa; p=${KEY.slice(0, 200)}" "${KEY.slice(200)}"`, verification: 'google-site-verification=abcdefghijklmnopqrstuvwxyz012345' }).sort()).toEqual(
      [
        '@ MX 1 smtp.google.com.',
        '@ TXT v=spf1 include:_spf.google.com ~all',
        `google._domainkey TXT v=DKIM1; k=rsa; p=${KEY}`,
        '@ TXT google-site-verification=abcdefghijklmnopqrstuvwxyz012345',
        ...common,
      ].sort(),
    );
  });

  it('Microsoft 365: <domain>.mail.protection.outlook.com, spf.protection.outlook.com, selector1/2 CNAMEs under the tenant, autodiscover', () => {
    expect(records('microsoft', { tenantDomain: 'contoso.onmicrosoft.com', verification: 'MS=ms12345678' }).sort()).toEqual(
      [
        '@ MX 0 example-com.mail.protection.outlook.com.',
        '@ TXT v=spf1 include:spf.protection.outlook.com -all',
        'selector1._domainkey CNAME selector1-example-com._domainkey.contoso.onmicrosoft.com.',
        'selector2._domainkey CNAME selector2-example-com._domainkey.contoso.onmicrosoft.com.',
        'autodiscover CNAME autodiscover.outlook.com.',
        '@ TXT MS=ms12345678',
        ...common,
      ].sort(),
    );
  });

  it('Fastmail: in1/in2-smtp.messagingengine.com, spf.messagingengine.com, fm1-3 CNAMEs to dkim.fmhosted.com; no input needed', () => {
    expect(records('fastmail').sort()).toEqual(
      [
        '@ MX 10 in1-smtp.messagingengine.com.',
        '@ MX 20 in2-smtp.messagingengine.com.',
        '@ TXT v=spf1 include:spf.messagingengine.com ?all',
        'fm1._domainkey CNAME fm1.example.com.dkim.fmhosted.com.',
        'fm2._domainkey CNAME fm2.example.com.dkim.fmhosted.com.',
        'fm3._domainkey CNAME fm3.example.com.dkim.fmhosted.com.',
        ...common,
      ].sort(),
    );
  });

  it('Proton: mail/mailsec.protonmail.ch, _spf.protonmail.ch, the three DKIM CNAMEs from the one Proton shows, its verification', () => {
    expect(records('proton', { verification: 'protonmail-verification=0123456789abcdef0123456789abcdef01234567', protonDkimTarget: 'protonmail.domainkey.dq7x3abc.domains.proton.ch.' }).sort()).toEqual(
      [
        '@ TXT protonmail-verification=0123456789abcdef0123456789abcdef01234567',
        '@ MX 10 mail.protonmail.ch.',
        '@ MX 20 mailsec.protonmail.ch.',
        '@ TXT v=spf1 include:_spf.protonmail.ch ~all',
        'protonmail._domainkey CNAME protonmail.domainkey.dq7x3abc.domains.proton.ch.',
        'protonmail2._domainkey CNAME protonmail2.domainkey.dq7x3abc.domains.proton.ch.',
        'protonmail3._domainkey CNAME protonmail3.domainkey.dq7x3abc.domains.proton.ch.',
        ...common,
      ].sort(),
    );
  });

  it('Zoho: mx/mx2/mx3 of the account\u2019s data centre, its zohomail SPF include, the DKIM key at the chosen selector', () => {
    expect(records('zoho', { zohoRegion: 'eu', dkimSelector: 'zmail', dkimKey: KEY, mtaSts: false, dmarcPolicy: 'quarantine' }).sort()).toEqual(
      [
        '@ MX 10 mx.zoho.eu.',
        '@ MX 20 mx2.zoho.eu.',
        '@ MX 50 mx3.zoho.eu.',
        '@ TXT v=spf1 include:zohomail.eu ~all',
        `zmail._domainkey TXT v=DKIM1; k=rsa; p=${KEY}`,
        '_dmarc TXT v=DMARC1; p=quarantine; rua=mailto:dmarc@example.com',
        '_smtp._tls TXT v=TLSRPTv1; rua=mailto:tls-reports@example.com',
      ].sort(),
    );
    expect(records('zoho', { dkimSelector: 'zmail', dkimKey: KEY })).toContain('@ MX 10 mx.zoho.com.');
  });

  it('says which input is missing or malformed, per field, and builds nothing then', () => {
    expect(buildMailSetup(ZONE, 'google', base)).toEqual({ ok: false, errors: { dkimKey: expect.stringContaining('Paste the DKIM key') } });
    expect(buildMailSetup(ZONE, 'microsoft', { ...base, tenantDomain: 'contoso.com' })).toMatchObject({ ok: false, errors: { tenantDomain: expect.stringContaining('onmicrosoft.com') } });
    expect(buildMailSetup(ZONE, 'proton', base)).toMatchObject({ ok: false, errors: { verification: expect.any(String), protonDkimTarget: expect.any(String) } });
    expect(buildMailSetup(ZONE, 'zoho', { ...base, dkimKey: 'short' })).toMatchObject({ ok: false, errors: { dkimSelector: expect.any(String), dkimKey: expect.stringContaining('base64') } });
    expect(buildMailSetup(ZONE, 'fastmail', { ...base, dmarcReports: 'not an address' })).toMatchObject({ ok: false, errors: { dmarcReports: expect.any(String) } });
  });

  it('gives the MTA-STS policy file to serve, listing the provider\u2019s MX hosts, and every provider has its page and inputs', () => {
    const setup = buildMailSetup(ZONE, 'fastmail', base);
    expect(setup.ok && setup.mtaStsPolicy).toBe('version: STSv1\r\nmode: testing\r\nmx: in1-smtp.messagingengine.com\r\nmx: in2-smtp.messagingengine.com\r\nmax_age: 604800\r\n');
    expect(MAIL_PROVIDERS.map((p) => p.id)).toEqual(['google', 'microsoft', 'fastmail', 'proton', 'zoho']);
    for (const p of MAIL_PROVIDERS) expect(p.docs).toMatch(/^https:\/\//);
  });
});
