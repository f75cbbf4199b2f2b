import { txtToWire } from '../dns/rdata.ts';
import type { RecordType } from '../wire/dns.ts';

/*
 * The mail-provider wizard's records (issue 36: "a wizard builds SPF, DKIM, DMARC, MTA-STS and TLS-RPT for the common
 * mail providers"), from each provider's published set-up values. Pure: the Mail tab turns the result into one
 * change set, reviewed and signed like any other.
 */

export type MailProviderId = 'google' | 'microsoft' | 'fastmail' | 'proton' | 'zoho';
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';
export type ZohoRegion = 'com' | 'eu' | 'in' | 'com.au' | 'jp' | 'ca';

/** What a person gives the wizard; each provider reads the inputs it lists. */
export interface MailSetupInput {
  /** Google, Zoho: the DKIM key as the provider's console shows it ("v=DKIM1; k=rsa; p=MIIB…" or the p= value alone). */
  dkimKey?: string;
  /** Google, Zoho: the DKIM selector chosen in the console (Google's default is "google"). */
  dkimSelector?: string;
  /** Microsoft 365: the tenant's initial domain (contoso.onmicrosoft.com), which its DKIM CNAMEs point under. */
  tenantDomain?: string;
  /** Proton: the first DKIM CNAME target Proton shows (protonmail.domainkey.d….domains.proton.ch). */
  protonDkimTarget?: string;
  /** Zoho: the data centre the account lives in. */
  zohoRegion?: ZohoRegion;
  /** The provider's domain-verification TXT value (google-site-verification=…, MS=…, protonmail-verification=…, zoho-verification=…). */
  verification?: string;
  dmarcPolicy: DmarcPolicy;
  /** Where DMARC aggregate reports go (dmarc@ the domain unless given). */
  dmarcReports?: string;
  /** Where TLS reports go (tls-reports@ the domain unless given). */
  tlsReports?: string;
  /** Whether to publish the MTA-STS record (the policy file must then be served at https://mta-sts.<domain>/.well-known/mta-sts.txt). */
  mtaSts: boolean;
  /** The MTA-STS policy id: a moment (yyyymmddhhmmss) when none is given. */
  now: Date;
}

export type MailSetupField = 'dkimKey' | 'dkimSelector' | 'tenantDomain' | 'protonDkimTarget' | 'verification' | 'dmarcReports' | 'tlsReports';

export interface MailProvider {
  id: MailProviderId;
  label: string;
  /** The inputs this provider needs (required) or takes (optional), in the order the wizard asks them. */
  inputs: Array<{ field: MailSetupField | 'zohoRegion'; label: string; hint: string; required: boolean }>;
  /** The provider's own page with these values. */
  docs: string;
}

export const MAIL_PROVIDERS: readonly MailProvider[] = [
  {
    id: 'google', label: 'Google Workspace', docs: 'https://support.google.com/a/answer/140034',
    inputs: [
      { field: 'dkimKey', label: 'DKIM key', hint: 'Admin console › Apps › Gmail › Authenticate email › Generate new record: the TXT value (v=DKIM1; k=rsa; p=…)', required: true },
      { field: 'dkimSelector', label: 'DKIM selector', hint: 'The prefix chosen there; google unless you changed it', required: false },
      { field: 'verification', label: 'Verification value', hint: 'google-site-verification=…, if Google asked you to verify the domain', required: false },
    ],
  },
  {
    id: 'microsoft', label: 'Microsoft 365', docs: 'https://learn.microsoft.com/microsoft-365/admin/get-help-with-domains/create-dns-records-at-any-dns-hosting-provider',
    inputs: [
      { field: 'tenantDomain', label: 'Initial domain', hint: 'Your tenant\u2019s onmicrosoft.com domain, as contoso.onmicrosoft.com (Microsoft 365 admin center › Settings › Domains)', required: true },
      { field: 'verification', label: 'Verification value', hint: 'MS=ms12345678, if Microsoft asked you to verify the domain', required: false },
    ],
  },
  { id: 'fastmail', label: 'Fastmail', docs: 'https://www.fastmail.help/hc/en-us/articles/360060591153-Manual-DNS-configuration', inputs: [] },
  {
    id: 'proton', label: 'Proton Mail', docs: 'https://proton.me/support/custom-domain',
    inputs: [
      { field: 'verification', label: 'Verification value', hint: 'protonmail-verification=…, from Settings › Domain names › Verify', required: true },
      { field: 'protonDkimTarget', label: 'DKIM target', hint: 'The first CNAME value Proton shows under DKIM: protonmail.domainkey.d….domains.proton.ch', required: true },
    ],
  },
  {
    id: 'zoho', label: 'Zoho Mail', docs: 'https://www.zoho.com/mail/help/adminconsole/configure-email-delivery.html',
    inputs: [
      { field: 'zohoRegion', label: 'Data centre', hint: 'Where your Zoho account lives (the address you sign in at: zoho.com, zoho.eu, …)', required: true },
      { field: 'dkimSelector', label: 'DKIM selector', hint: 'The selector you added in Zoho Mail admin › Email authentication › DKIM (for example zmail)', required: true },
      { field: 'dkimKey', label: 'DKIM key', hint: 'The TXT value Zoho shows for it (v=DKIM1; k=rsa; p=…)', required: true },
      { field: 'verification', label: 'Verification value', hint: 'zoho-verification=…, if Zoho asked you to verify the domain', required: false },
    ],
  },
];

export interface MailRecord {
  /** Relative to the zone ('@' the apex). */
  name: string;
  type: RecordType;
  /** The stored form (TXT quoted, names with their dot). */
  rdata: string;
  ttl: number;
  /** What it is for, in words: the review lists it. */
  role: 'MX' | 'SPF' | 'DKIM' | 'DMARC' | 'MTA-STS' | 'TLS-RPT' | 'Verification' | 'Autodiscover';
}

export type MailSetup =
  | { ok: true; records: MailRecord[]; notes: string[]; /** The MTA-STS policy file to serve, when the record is published. */ mtaStsPolicy?: string }
  | { ok: false; errors: Partial<Record<MailSetupField, string>> };

const TTL = 3600;
const ZOHO_MX: Record<ZohoRegion, string> = { com: 'zoho.com', eu: 'zoho.eu', in: 'zoho.in', 'com.au': 'zoho.com.au', jp: 'zoho.jp', ca: 'zohocloud.ca' };
const ZOHO_SPF: Record<ZohoRegion, string> = { com: 'zohomail.com', eu: 'zohomail.eu', in: 'zohomail.in', 'com.au': 'zohomail.com.au', jp: 'zohomail.jp', ca: 'zohocloud.ca' };

const SELECTOR = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const HOST = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const EMAIL = /^[^\s@,;!]+@([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** A DKIM key as pasted: the whole TXT value (tags kept, spaces and quotes dropped) or the base64 public key alone. */
function dkimValue(input: string | undefined): { value: string } | { error: string } {
  const text = (input ?? '').replace(/"\s*"/g, '').replace(/["\s]/g, '');
  if (text === '') return { error: 'Paste the DKIM key the provider shows (v=DKIM1; k=rsa; p=MIIB…)' };
  const tags = text.includes('=') && /(^|;)p=/.test(text) ? text : `v=DKIM1;k=rsa;p=${text}`;
  const p = /(?:^|;)p=([^;]*)/.exec(tags)?.[1] ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(p) || p.length < 100) return { error: 'The key (p=…) is base64 text of at least 100 characters: paste the whole value the provider shows' };
  return { value: tags.split(';').filter(Boolean).join('; ') };
}

function check(value: string | undefined, pattern: RegExp): string | null {
  const v = (value ?? '').trim().toLowerCase().replace(/\.$/, '');
  return pattern.test(v) ? v : null;
}

/** The MTA-STS policy id: the moment as yyyymmddhhmmss (RFC 8461 §3.1: 1-32 alphanumerics, changed with the policy). */
function policyId(now: Date): string {
  return now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** Builds the records of one provider's mail set-up for a zone, or says which inputs are missing or malformed. */
export function buildMailSetup(zoneName: string, provider: MailProviderId, input: MailSetupInput): MailSetup {
  const zone = zoneName.toLowerCase();
  const errors: Partial<Record<MailSetupField, string>> = {};
  const records: MailRecord[] = [];
  const notes: string[] = [];
  const txt = (name: string, text: string, role: MailRecord['role']) => records.push({ name, type: 'TXT', rdata: txtToWire(text), ttl: TTL, role });
  const mx = (preference: number, host: string) => records.push({ name: '@', type: 'MX', rdata: `${preference} ${host}.`, ttl: TTL, role: 'MX' });
  const cname = (name: string, target: string, role: MailRecord['role']) => records.push({ name, type: 'CNAME', rdata: `${target.replace(/\.$/, '')}.`, ttl: TTL, role });
  const verification = (prefix: RegExp, example: string, required: boolean) => {
    const value = (input.verification ?? '').trim().replace(/^"|"$/g, '');
    if (value === '') {
      if (required) errors.verification = `Paste the verification value the provider shows (${example})`;
      return;
    }
    if (!prefix.test(value) || /\s/.test(value)) errors.verification = `The verification value looks like ${example}`;
    else txt('@', value, 'Verification');
  };
  const selectorOf = (fallback?: string) => {
    const raw = (input.dkimSelector ?? '').trim() || fallback;
    const selector = check(raw, SELECTOR);
    if (!selector) errors.dkimSelector = raw ? 'A selector is letters, digits and hyphens, as zmail or google' : 'Enter the DKIM selector you chose in the provider\u2019s console';
    return selector;
  };
  const dkimTxt = (selector: string | null) => {
    const key = dkimValue(input.dkimKey);
    if ('error' in key) errors.dkimKey = key.error;
    else if (selector) txt(`${selector}._domainkey`, key.value, 'DKIM');
  };

  let spf = '';
  let mxHosts: string[] = [];
  switch (provider) {
    case 'google':
      mx(1, 'smtp.google.com');
      mxHosts = ['smtp.google.com'];
      spf = 'v=spf1 include:_spf.google.com ~all';
      dkimTxt(selectorOf('google'));
      verification(/^google-site-verification=[A-Za-z0-9_-]{20,}$/, 'google-site-verification=…', false);
      break;
    case 'microsoft': {
      const dashed = zone.replace(/\./g, '-');
      const host = `${dashed}.mail.protection.outlook.com`;
      mx(0, host);
      mxHosts = [host];
      spf = 'v=spf1 include:spf.protection.outlook.com -all';
      cname('autodiscover', 'autodiscover.outlook.com', 'Autodiscover');
      const tenant = check(input.tenantDomain, HOST);
      if (!tenant || !tenant.endsWith('.onmicrosoft.com')) errors.tenantDomain = 'Enter your tenant\u2019s initial domain, as contoso.onmicrosoft.com';
      else for (const s of ['selector1', 'selector2']) cname(`${s}._domainkey`, `${s}-${dashed}._domainkey.${tenant}`, 'DKIM');
      verification(/^MS=ms\d+$/, 'MS=ms12345678', false);
      break;
    }
    case 'fastmail':
      mx(10, 'in1-smtp.messagingengine.com');
      mx(20, 'in2-smtp.messagingengine.com');
      mxHosts = ['in1-smtp.messagingengine.com', 'in2-smtp.messagingengine.com'];
      spf = 'v=spf1 include:spf.messagingengine.com ?all';
      for (const s of ['fm1', 'fm2', 'fm3']) cname(`${s}._domainkey`, `${s}.${zone}.dkim.fmhosted.com`, 'DKIM');
      break;
    case 'proton': {
      verification(/^protonmail-verification=[a-f0-9]{20,}$/i, 'protonmail-verification=…', true);
      mx(10, 'mail.protonmail.ch');
      mx(20, 'mailsec.protonmail.ch');
      mxHosts = ['mail.protonmail.ch', 'mailsec.protonmail.ch'];
      spf = 'v=spf1 include:_spf.protonmail.ch ~all';
      const target = check(input.protonDkimTarget, HOST);
      const id = target ? /^protonmail\.domainkey\.([a-z0-9]+)\.domains\.proton\.ch$/.exec(target)?.[1] : undefined;
      if (!id) errors.protonDkimTarget = 'Paste the first DKIM value Proton shows: protonmail.domainkey.d….domains.proton.ch';
      else for (const s of ['protonmail', 'protonmail2', 'protonmail3']) cname(`${s}._domainkey`, `${s}.domainkey.${id}.domains.proton.ch`, 'DKIM');
      break;
    }
    case 'zoho': {
      const region = input.zohoRegion ?? 'com';
      const base = ZOHO_MX[region];
      mx(10, `mx.${base}`);
      mx(20, `mx2.${base}`);
      mx(50, `mx3.${base}`);
      mxHosts = [`mx.${base}`, `mx2.${base}`, `mx3.${base}`];
      spf = `v=spf1 include:${ZOHO_SPF[region]} ~all`;
      dkimTxt(selectorOf());
      verification(/^zoho-verification=[a-z0-9.]+$/i, 'zoho-verification=zb12345678.zmverify.zoho.com', false);
      break;
    }
  }
  txt('@', spf, 'SPF');

  const dmarcTo = (input.dmarcReports ?? '').trim() || `dmarc@${zone}`;
  if (!EMAIL.test(dmarcTo)) errors.dmarcReports = 'Enter the e-mail address DMARC reports go to, as dmarc@example.com';
  else txt('_dmarc', `v=DMARC1; p=${input.dmarcPolicy}; rua=mailto:${dmarcTo}`, 'DMARC');
  const tlsTo = (input.tlsReports ?? '').trim() || `tls-reports@${zone}`;
  if (!EMAIL.test(tlsTo)) errors.tlsReports = 'Enter the e-mail address TLS reports go to, as tls-reports@example.com';
  else txt('_smtp._tls', `v=TLSRPTv1; rua=mailto:${tlsTo}`, 'TLS-RPT');

  let mtaStsPolicy: string | undefined;
  if (input.mtaSts) {
    txt('_mta-sts', `v=STSv1; id=${policyId(input.now)}`, 'MTA-STS');
    mtaStsPolicy = ['version: STSv1', 'mode: testing', ...mxHosts.map((h) => `mx: ${h}`), 'max_age: 604800', ''].join('\r\n');
    notes.push(`MTA-STS needs its policy file served over HTTPS at https://mta-sts.${zone}/.well-known/mta-sts.txt (below, in testing mode); until it is, senders ignore the record.`);
  }
  if (input.dmarcPolicy === 'none') notes.push('DMARC starts at p=none: reports arrive, nothing is refused yet. Move to quarantine, then reject, once the reports show only your own mail.');
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, records, notes, ...(mtaStsPolicy ? { mtaStsPolicy } : {}) };
}
