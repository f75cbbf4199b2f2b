import type { RecordType } from '../wire/dns.ts';
import { isIpv4, canonicalIpv6 } from './ip.ts';
import { plainName } from './names.ts';
import { txtToWire } from './rdata.ts';

interface TemplateParam {
  key: string;
  label: string;
  example: string;
  required: boolean;
  /** Why a value is unusable, or null when it is fine (an empty optional value is not checked). */
  check?: (value: string) => string | null;
}

export type TemplateRecord = { name: string; type: RecordType; rdata: string; ttl: number };

export interface RecordTemplate {
  id: string;
  label: string;
  description: string;
  params: TemplateParam[];
  /** Builds the records in their stored form; throws TemplateParamError when a value is missing or unusable. */
  build(params: Record<string, string>, zoneName: string): TemplateRecord[];
}

export class TemplateParamError extends Error {
  readonly errors: Record<string, string>;
  constructor(errors: Record<string, string>) {
    super(Object.values(errors).join('; '));
    this.name = 'TemplateParamError';
    this.errors = errors;
  }
}

const TTL = 3600;

/** Messages per parameter key for the values given; empty when the template can be built. */
export function templateErrors(template: RecordTemplate, params: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const param of template.params) {
    const value = (params[param.key] ?? '').trim();
    if (value === '') {
      if (param.required) errors[param.key] = `${param.label} is required, e.g. ${param.example}`;
      continue;
    }
    const problem = param.check?.(value);
    if (problem) errors[param.key] = problem;
  }
  return errors;
}

function valuesOf(template: Omit<RecordTemplate, 'build'>, params: Record<string, string>): Record<string, string> {
  const errors = templateErrors(template as RecordTemplate, params);
  if (Object.keys(errors).length > 0) throw new TemplateParamError(errors);
  const values: Record<string, string> = {};
  for (const param of template.params) values[param.key] = (params[param.key] ?? '').trim();
  return values;
}

function define(
  template: Omit<RecordTemplate, 'build'>,
  build: (values: Record<string, string>, zoneName: string) => TemplateRecord[],
): RecordTemplate {
  return { ...template, build: (params, zoneName) => build(valuesOf(template, params), plainName(zoneName)) };
}

const checkIpv4 = (value: string) => (isIpv4(value) ? null : 'Enter an IPv4 address such as 192.0.2.10');
const checkIpv6 = (value: string) => (canonicalIpv6(value) ? null : 'Enter an IPv6 address such as 2001:db8::10');
const checkEmail = (value: string) =>
  /^[^\s@;,]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/i.test(value) ? null : 'Enter an e-mail address such as dmarc-reports@example.com';
const checkTxtToken = (value: string) => (/^[\x21-\x7e]+$/.test(value) ? null : 'Paste the value without spaces or quotes');
const checkHosts = (value: string) =>
  value.split(/[\s,]+/).every((host) => /^[a-z0-9_]([a-z0-9_.-]*[a-z0-9])?$/i.test(host))
    ? null
    : 'List host names separated by spaces, such as _spf.google.com';
const oneOf = (choices: string[]) => (value: string) => (choices.includes(value) ? null : `Choose one of ${choices.join(', ')}`);

const webHost = define(
  {
    id: 'web-host',
    label: 'Website',
    description: 'Points the domain and www to your web server: an A record for the domain, www as an alias of it.',
    params: [
      { key: 'ipv4', label: 'Server IPv4 address', example: '192.0.2.10', required: true, check: checkIpv4 },
      { key: 'ipv6', label: 'Server IPv6 address', example: '2001:db8::10', required: false, check: checkIpv6 },
    ],
  },
  (values, zone) => [
    { name: '@', type: 'A', rdata: values.ipv4, ttl: TTL },
    ...(values.ipv6 ? [{ name: '@', type: 'AAAA' as const, rdata: canonicalIpv6(values.ipv6) ?? values.ipv6, ttl: TTL }] : []),
    { name: 'www', type: 'CNAME', rdata: `${zone}.`, ttl: TTL },
  ],
);

const verification = (key: string, example: string) => ({
  key,
  label: 'Verification code (optional)',
  example,
  required: false,
  check: checkTxtToken,
});

const googleWorkspace = define(
  {
    id: 'google-workspace',
    label: 'Google Workspace mail',
    description: 'Delivers mail for the domain to Gmail (Google Workspace) with the single MX record Google recommends.',
    params: [verification('verification', 'google-site-verification=abc123')],
  },
  (values) => [
    { name: '@', type: 'MX', rdata: '1 smtp.google.com.', ttl: TTL },
    ...(values.verification ? [{ name: '@', type: 'TXT' as const, rdata: txtToWire(values.verification), ttl: TTL }] : []),
  ],
);

const googleWorkspaceClassic = define(
  {
    id: 'google-workspace-classic',
    label: 'Google Workspace mail (classic five MX)',
    description: 'The five MX records Google Workspace used before 2023, still valid for older set-ups.',
    params: [],
  },
  () =>
    [
      '1 aspmx.l.google.com.',
      '5 alt1.aspmx.l.google.com.',
      '5 alt2.aspmx.l.google.com.',
      '10 alt3.aspmx.l.google.com.',
      '10 alt4.aspmx.l.google.com.',
    ].map((rdata) => ({ name: '@', type: 'MX' as const, rdata, ttl: TTL })),
);

/** The MX host Microsoft 365 gives a domain: its name with dots as dashes (the admin center shows the exact one). */
export function microsoftMxHost(zoneName: string): string {
  return `${plainName(zoneName).replace(/\./g, '-')}.mail.protection.outlook.com.`;
}

const microsoft365 = define(
  {
    id: 'microsoft-365',
    label: 'Microsoft 365 mail',
    description: 'Mail to Exchange Online: the MX record, the autodiscover alias for Outlook, and an SPF record.',
    params: [
      {
        key: 'mxHost',
        label: 'MX host from the Microsoft 365 admin center (optional)',
        example: 'example-com.mail.protection.outlook.com',
        required: false,
        check: (value) => (/\.mail\.protection\.outlook\.com\.?$/i.test(value) ? null : 'Enter the host ending in .mail.protection.outlook.com'),
      },
      verification('verification', 'MS=ms12345678'),
    ],
  },
  (values, zone) => [
    { name: '@', type: 'MX', rdata: `0 ${values.mxHost ? `${plainName(values.mxHost)}.` : microsoftMxHost(zone)}`, ttl: TTL },
    { name: 'autodiscover', type: 'CNAME', rdata: 'autodiscover.outlook.com.', ttl: TTL },
    { name: '@', type: 'TXT', rdata: txtToWire('v=spf1 include:spf.protection.outlook.com -all'), ttl: TTL },
    ...(values.verification ? [{ name: '@', type: 'TXT' as const, rdata: txtToWire(values.verification), ttl: TTL }] : []),
  ],
);

const spf = define(
  {
    id: 'spf',
    label: 'SPF (allowed senders)',
    description: 'Says which servers may send mail for the domain, so receivers can reject forgeries.',
    params: [
      { key: 'include', label: 'Services that send your mail', example: '_spf.google.com', required: false, check: checkHosts },
      {
        key: 'ip4',
        label: 'Server addresses that send mail',
        example: '192.0.2.10',
        required: false,
        check: (value) => (value.split(/[\s,]+/).every((ip) => isIpv4(ip.replace(/\/([0-9]|[12][0-9]|3[0-2])$/, ''))) ? null : 'List IPv4 addresses separated by spaces, such as 192.0.2.10'),
      },
      { key: 'mx', label: 'Also allow the MX servers (yes/no)', example: 'no', required: false, check: oneOf(['yes', 'no']) },
      { key: 'all', label: 'Everyone else', example: '~all', required: false, check: oneOf(['~all', '-all', '?all']) },
    ],
  },
  (values) => {
    const list = (text: string) => (text ? text.split(/[\s,]+/) : []);
    const terms = [
      'v=spf1',
      ...(values.mx === 'yes' ? ['mx'] : []),
      ...list(values.ip4).map((ip) => `ip4:${ip}`),
      ...list(values.include).map((host) => `include:${host.toLowerCase()}`),
      values.all || '~all',
    ];
    return [{ name: '@', type: 'TXT', rdata: txtToWire(terms.join(' ')), ttl: TTL }];
  },
);

const dmarc = define(
  {
    id: 'dmarc',
    label: 'DMARC (mail policy and reports)',
    description: 'Tells receivers what to do with mail that fails SPF and DKIM, and where to send aggregate reports.',
    params: [
      { key: 'rua', label: 'E-mail address for reports', example: 'dmarc-reports@example.com', required: true, check: checkEmail },
      { key: 'policy', label: 'Policy', example: 'none', required: false, check: oneOf(['none', 'quarantine', 'reject']) },
    ],
  },
  (values) => [
    {
      name: '_dmarc',
      type: 'TXT',
      rdata: txtToWire(`v=DMARC1; p=${values.policy || 'none'}; rua=mailto:${values.rua}`),
      ttl: TTL,
    },
  ],
);

export const RECORD_TEMPLATES: RecordTemplate[] = [webHost, googleWorkspace, googleWorkspaceClassic, microsoft365, spf, dmarc];
