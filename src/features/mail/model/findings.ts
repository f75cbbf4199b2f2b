import { txtFromWire } from '#core/dns/rdata.ts';
import { isManaged, type DnsRecord } from '#core/wire/dns.ts';
import type { MailFinding, MailFix } from '#core/wire/mail.ts';
import { addCreate, setUpdate, type Draft } from '@/features/records/index.ts';

/** What each part of the check is about and why it matters, in a line the panel puts above its findings. */
const TOPICS = [
  { prefix: 'spf', title: 'SPF', why: 'Says which servers may send mail as this domain; receivers send the rest to spam.' },
  { prefix: 'dmarc', title: 'DMARC', why: 'Tells receivers what to do with mail that fails SPF and DKIM, and sends you reports. Gmail and Yahoo require it of bulk senders.' },
  { prefix: 'dkim', title: 'DKIM', why: 'A signature on each message that survives forwarding, checked against the key published here.' },
  { prefix: 'mx', title: 'Mail servers (MX)', why: 'Where mail to this domain is delivered; a server without an address makes mail bounce.' },
  { prefix: 'mta-sts', title: 'MTA-STS', why: 'Makes senders insist on encrypted delivery to your mail servers. Advice, not a fault.' },
  { prefix: 'tls-rpt', title: 'TLS reports (TLS-RPT)', why: 'Senders tell you when they could not deliver over TLS. Advice, not a fault.' },
] as const;

type Topic = (typeof TOPICS)[number];

/** The findings under each topic, in the topics' order (a topic without findings is left out). */
export function byTopic(findings: MailFinding[]): Array<{ topic: Topic; findings: MailFinding[] }> {
  return TOPICS.map((topic) => ({ topic, findings: findings.filter((f) => f.id === topic.prefix || f.id.startsWith(`${topic.prefix}-`)) })).filter((g) => g.findings.length > 0);
}

/** The worst severity among findings: what the tab's summary says. */
export function worst(findings: MailFinding[]): MailFinding['severity'] {
  if (findings.some((f) => f.severity === 'error')) return 'error';
  return findings.some((f) => f.severity === 'warning') ? 'warning' : 'ok';
}

const DEFAULT_TTL = 3600;
const textOf = (r: DnsRecord) => (r.type === 'TXT' ? txtFromWire(r.rdata) : r.rdata);

/**
 * The change set with a finding's fix in it: when the finding is about a stored record of the fix's name and type
 * (an SPF record ending in +all, a DMARC record without rua), that record's edit; otherwise a new record.
 */
export function withFix(draft: Draft, zone: DnsRecord[], finding: MailFinding & { fix: MailFix }): Draft {
  const { fix } = finding;
  const current = finding.record === undefined ? undefined : zone.find((r) => !isManaged(r) && r.name === fix.name && r.type === fix.type && textOf(r) === finding.record);
  if (current) return setUpdate(draft, current, { name: fix.name, type: fix.type, rdata: fix.rdata, ttl: current.ttl });
  return addCreate(draft, { name: fix.name, type: fix.type, rdata: fix.rdata, ttl: DEFAULT_TTL });
}
