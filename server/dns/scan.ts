import { parseNameServer, type NameServer } from '#core/dns/name-server.ts';
import { isAtOrBelow, normaliseZone, plainName, relativeName, toAbsolute } from '#core/dns/names.ts';
import { typeByNumber } from '#core/dns/wire-rdata.ts';
import type { ScannedRecord, ZoneScan } from '#core/operations/records.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { parseServer, query, transfer as transferFrom, type DnsServer } from '../dns-client/client.ts';
import { rcodeName, storedAnswers, type Reply, type StoredAnswer as DnsAnswer } from '../dns-client/reply.ts';
import type { ResolveName } from '../dns-client/resolution.ts';
import { invalidInput } from '../domain-errors.ts';
import { isNonPublicAddress } from '../net/addresses.ts';

/*
 * Import from the old provider (contract: "Import from the old provider"): read a zone from the name server it is
 * leaving, writing nothing. With a name server, a zone transfer (AXFR over TCP) first; when that is refused, a probe
 * of the names people use, asked of that server or, without one, of DNS_RESOLVER. The service asks only the server it
 * was given (checked not to be on its own network unless SCAN_ALLOW_PRIVATE) or the resolvers it was configured with.
 * A name server given by name is found by the service's resolution policy (its own zones, then DNS_RESOLVER); the
 * probe itself never reads the service's own zones, which hold the zone being moved: it asks from outside.
 */

/** The probe's budget: at most this many queries, retries and TCP repeats included. */
export const PROBE_QUERY_LIMIT = 300;
const QUERY_TIMEOUT_MS = 1500;
const AXFR_IDLE_MS = 5000;
const AXFR_TOTAL_MS = 30_000;
const PARALLEL = 6;

export interface ScanSettings {
  /** DNS_RESOLVER: `host:port` entries with IP addresses. */
  resolvers: readonly string[];
  allowPrivate: boolean;
  /** The most records a transfer may bring (ZONE_RECORD_LIMIT). */
  recordLimit: number;
  /** The service's resolution policy (server/dns/resolver.ts): finds a name server given by name. */
  resolveName: ResolveName;
}

interface Target extends DnsServer {
  /** How the notes name it. */
  label: string;
}

/** Ordinary host names people give a zone. `*` asks the wildcard itself. */
const HOSTS = [
  'www', 'mail', 'smtp', 'imap', 'pop', 'pop3', 'webmail', 'email', 'mx', 'mx1', 'mx2', 'ftp', 'api', 'app', 'blog', 'shop',
  'store', 'cdn', 'static', 'dev', 'staging', 'test', 'vpn', 'remote', 'portal', 'admin', 'ns1', 'ns2', 'autodiscover',
  'autoconfig', 'mta-sts', 'm', 'docs', 'status', 'help', 'support', 'git', 'calendar', 'drive', 'login', 'sso', 'link',
];
/** DKIM selectors of the common mail services (Google, Microsoft, Fastmail, Proton, Zoho, SendGrid, Mailchimp, Amazon SES, …). */
const DKIM_SELECTORS = [
  'google', 'selector1', 'selector2', 'default', 'dkim', 'mail', 'k1', 'k2', 'k3', 's1', 's2', 'fm1', 'fm2', 'fm3', 'protonmail',
  'protonmail2', 'protonmail3', 'zoho', 'zmail', 'mandrill', 'mxvault', 'smtpapi', 'mailjet', 'sig1', 'key1', 'dkim1', 'everlytickey1',
  'everlytickey2', 'pm', 'mailo', 'resend', 'turbo-smtp', 'ml', 'smtp',
];
/** TXT-only names: policy and verification records. */
const TXT_NAMES = ['_dmarc', '_mta-sts', '_smtp._tls', '_acme-challenge', '_github-pages-challenge', '_atproto', '_domainconnect'];
/** SRV names for mail, calendars, chat and calls. */
const SRV_TCP = [
  '_submission', '_submissions', '_imap', '_imaps', '_pop3', '_pop3s', '_autodiscover', '_caldav', '_caldavs', '_carddav', '_carddavs',
  '_xmpp-client', '_xmpp-server', '_jabber', '_sip', '_sips', '_sipfederationtls', '_matrix', '_matrix-fed', '_minecraft', '_ldap', '_kerberos',
];
const SRV_UDP = ['_sip', '_kerberos', '_stun', '_turn'];
const APEX_TYPES: RecordType[] = ['A', 'AAAA', 'MX', 'TXT', 'CAA', 'HTTPS'];

/** Type numbers a transfer may carry that this service does not hold, by name, for the notes. */
const OTHER_TYPES: Record<number, string> = { 46: 'RRSIG', 47: 'NSEC', 48: 'DNSKEY', 50: 'NSEC3', 51: 'NSEC3PARAM', 59: 'CDS', 60: 'CDNSKEY', 63: 'ZONEMD', 13: 'HINFO', 29: 'LOC', 17: 'RP', 39: 'DNAME' };
const DNSSEC_TYPES = new Set(['RRSIG', 'NSEC', 'DNSKEY', 'NSEC3', 'NSEC3PARAM', 'CDS', 'CDNSKEY', 'ZONEMD']);

/** Reads a zone from its old provider. Throws 400 at `nameserver` for a server it may not or cannot ask. */
export async function scanZone(zoneNameInput: string, nameserverText: string | undefined, settings: ScanSettings): Promise<ZoneScan> {
  const zone = normaliseZone(zoneNameInput);
  const notes: string[] = [];
  let queried = 0;
  const given = nameserverText?.trim() ? nameserverText.trim() : undefined;
  let targets: Target[];
  if (given) {
    const parsed = parseNameServer(given);
    if (!parsed.ok) throw invalidInput({ nameserver: [parsed.message] });
    const looked = await addressesOf(parsed.value, settings);
    queried += looked.queried;
    targets = looked.addresses.map((host) => ({ host, port: parsed.value.port, label: given }));
  } else {
    if (settings.resolvers.length === 0) {
      throw invalidInput({ nameserver: ['This service has no DNS_RESOLVER to probe through: enter the old provider\u2019s name server (as ns1.old-provider.net)'] });
    }
    targets = settings.resolvers.map((entry) => ({ ...parseServer(entry), label: 'the service\u2019s resolver' }));
  }

  if (given) {
    const axfr = await transfer(zone, targets[0], settings.recordLimit);
    queried += 1;
    if (axfr.ok) {
      notes.push(`${given} allowed a zone transfer (AXFR): every record of ${zone} it serves was read.`);
      const kept = keep(zone, axfr.answers, notes);
      leftOut(axfr.otherTypes, notes);
      return { method: 'axfr', records: kept, queried, notes };
    }
    notes.push(`${given} refused a zone transfer (${axfr.reason}), so the names people use were asked one by one.`);
  }
  const probe = await probeZone(zone, targets, PROBE_QUERY_LIMIT, notes, Boolean(given));
  return { method: 'probe', records: probe.records, queried: queried + probe.queried, notes };
}

/** The name server's addresses, each checked against the private-address rule. */
async function addressesOf(server: NameServer, settings: ScanSettings): Promise<{ addresses: string[]; queried: number }> {
  let addresses = [server.host];
  let queried = 0;
  if (!server.isAddress) {
    const found = await Promise.all((['A', 'AAAA'] as const).map((type) => settings.resolveName(server.host, type)));
    queried = found.reduce((sum, resolved) => sum + resolved.queries, 0);
    addresses = found.flatMap((resolved) => (resolved.status === 'ok' ? resolved.answers.map((a) => a.rdata) : []));
    if (addresses.length === 0 && settings.resolvers.length === 0 && found.every((resolved) => resolved.status === 'unresolved')) {
      throw invalidInput({ nameserver: [`This service has no DNS_RESOLVER to look ${server.host} up: enter its address (as 192.0.2.53)`] });
    }
    if (addresses.length === 0) throw invalidInput({ nameserver: [`${server.host} has no address (A or AAAA) that the service could find`] });
  }
  const inside = addresses.filter((a) => isNonPublicAddress(a));
  if (inside.length > 0 && !settings.allowPrivate) {
    const via = server.isAddress ? server.host : `${server.host} (${inside.join(', ')})`;
    throw invalidInput(
      { nameserver: [`${via} is a loopback, private or link-local address: the service does not scan its own network. Enter the old provider\u2019s public name server`] },
      { rule: 'SCAN_PRIVATE_ADDRESS' },
    );
  }
  return { addresses, queried };
}

/** The records kept for import: names made relative, the old SOA and apex NS left out, each record once. */
function keep(zone: string, answers: DnsAnswer[], notes: string[]): ScannedRecord[] {
  const seen = new Set<string>();
  const records: ScannedRecord[] = [];
  let outside = 0;
  for (const answer of answers) {
    const name = plainName(answer.name);
    if (!isAtOrBelow(name, zone)) {
      outside += 1;
      continue;
    }
    const relative = relativeName(name, zone);
    if (answer.type === 'SOA' || (answer.type === 'NS' && relative === '@')) continue;
    const key = `${relative}\u0000${answer.type}\u0000${answer.rdata}`;
    if (seen.has(key)) continue;
    seen.add(key);
    records.push({ name: relative, type: answer.type, rdata: answer.rdata, ttl: answer.ttl });
  }
  if (outside > 0) notes.push(`${outside} ${outside === 1 ? 'record' : 'records'} outside ${zone} left out.`);
  return records;
}

function leftOut(otherTypes: Map<string, number>, notes: string[]) {
  const dnssec = [...otherTypes.keys()].filter((t) => DNSSEC_TYPES.has(t));
  const others = [...otherTypes.entries()].filter(([t]) => !DNSSEC_TYPES.has(t));
  if (dnssec.length > 0) notes.push(`The old provider\u2019s DNSSEC records (${dnssec.join(', ')}) are left out: this service signs the zone itself when you turn DNSSEC on, with its own keys.`);
  if (others.length > 0) notes.push(`Left out, as this service does not hold them: ${others.map(([t, n]) => `${n} ${t}`).join(', ')}.`);
}

// ---------------------------------------------------------------------------------------------------------------
// AXFR over TCP (RFC 5936)

type Transfer = { ok: true; answers: DnsAnswer[]; otherTypes: Map<string, number> } | { ok: false; reason: string };

const AXFR_LIMITS = { idleMs: AXFR_IDLE_MS, totalMs: AXFR_TOTAL_MS };

/** Reads the transfer's messages until the closing SOA, counting what the service does not hold. */
function transfer(zone: string, target: Target, recordLimit: number): Promise<Transfer> {
  const answers: DnsAnswer[] = [];
  const otherTypes = new Map<string, number>();
  let soas = 0;
  let records = 0;
  let refused = 0;
  return transferFrom<Transfer>(target, zone, AXFR_LIMITS, (reply: Reply) => {
    if (reply.rcode !== 0) return { ok: false, reason: rcodeName(reply.rcode) };
    if (reply.answers.length === 0 && soas === 0) return { ok: false, reason: 'an empty answer' };
    const held = storedAnswers(reply.answers);
    answers.push(...held);
    for (const record of reply.answers) {
      records += 1;
      if (record.type === 6) soas += 1;
      if (typeByNumber(record.type)) continue;
      const name = OTHER_TYPES[record.type] ?? `TYPE${record.type}`;
      otherTypes.set(name, (otherTypes.get(name) ?? 0) + 1);
    }
    // Records of a type held here whose data this service would not accept (storedAnswers leaves them out).
    refused += reply.answers.filter((record) => typeByNumber(record.type)).length - held.length;
    if (soas === 0) return { ok: false, reason: 'the answer did not start with the zone\u2019s SOA' };
    if (records > recordLimit + 2) return { ok: false, reason: `more than ${recordLimit} records, this service\u2019s limit for a zone` };
    if (soas < 2) return undefined;
    if (refused > 0) otherTypes.set('records whose data this service does not accept', refused);
    return { ok: true, answers, otherTypes };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// One query, to each target in turn

type Answered = { response: { rcode: number; answers: DnsAnswer[] } | null; sent: number; reason?: string };

/** Asks `targets` in turn (the next on a timeout or a socket's error) for one name and type, within `budget` messages. */
async function ask(targets: Target[], name: string, type: RecordType, budget = Infinity): Promise<Answered> {
  let sent = 0;
  for (const target of targets) {
    if (sent >= budget) break;
    // A truncated answer is asked again over TCP only while the budget has room for it.
    const asked = await query(target, name, type, { timeoutMs: QUERY_TIMEOUT_MS, tcpOnTruncation: budget - sent >= 2 });
    sent += asked.sent;
    if (asked.ok) return { response: { rcode: asked.reply.rcode, answers: storedAnswers(asked.reply.answers) }, sent };
    if (asked.failure === 'malformed') return { response: null, sent, reason: asked.reason };
  }
  return { response: null, sent, reason: 'no answer' };
}

// ---------------------------------------------------------------------------------------------------------------
// The probe

async function probeZone(zone: string, targets: Target[], limit: number, notes: string[], direct: boolean): Promise<{ records: ScannedRecord[]; queried: number }> {
  let queried = 0;
  let skipped = 0;
  const answers: DnsAnswer[] = [];
  const askedNames = new Set<string>();
  /** What the wildcard answers, per type, when the zone has one: a probed name answering the same is the wildcard's. */
  const wildcard = new Map<RecordType, string>();

  async function query(relative: string, type: RecordType): Promise<{ rcode: number; here: DnsAnswer[] } | null> {
    if (queried >= limit) {
      skipped += 1;
      return null;
    }
    const result = await ask(targets, toAbsolute(relative, zone), type, limit - queried);
    queried += result.sent;
    if (!result.response) return null;
    const owner = toAbsolute(relative, zone);
    return { rcode: result.response.rcode, here: result.response.answers.filter((a) => plainName(a.name) === owner) };
  }

  const setKey = (list: DnsAnswer[]) => list.map((a) => `${a.type} ${a.rdata}`).sort().join('\n');

  /** Asks a name for its types in order; stops at NXDOMAIN (nothing there) or a CNAME (nothing else may be there). */
  async function probeName(relative: string, types: RecordType[]) {
    if (askedNames.has(relative)) return;
    askedNames.add(relative);
    for (const type of types) {
      const result = await query(relative, type);
      if (!result) continue;
      if (result.rcode === 3) return;
      if (result.rcode !== 0) continue;
      const cname = result.here.filter((a) => a.type === 'CNAME');
      const found = cname.length > 0 ? cname : result.here.filter((a) => a.type === type);
      if (found.length === 0) continue;
      if (relative !== '*' && wildcard.get(found[0].type) === setKey(found)) continue;
      answers.push(...found);
      if (relative === '*') wildcard.set(found[0].type, setKey(found));
      for (const target of targetsIn(found)) if (!askedNames.has(target)) later.push(() => probeName(target, ['A', 'AAAA', 'TXT']));
      if (cname.length > 0) return;
    }
  }

  /** Names inside the zone that records point at (MX, SRV, CNAME, HTTPS targets): asked too. */
  function targetsIn(found: DnsAnswer[]): string[] {
    return found.flatMap((a) => {
      const words = a.rdata.trim().split(/\s+/);
      const host = a.type === 'MX' ? words[1] : a.type === 'SRV' ? words[3] : a.type === 'CNAME' ? words[0] : a.type === 'HTTPS' || a.type === 'SVCB' ? words[1] : undefined;
      if (!host || host === '.') return [];
      const plain = plainName(host);
      return isAtOrBelow(plain, zone) && plain !== zone ? [relativeName(plain, zone)] : [];
    });
  }

  const later: Array<() => Promise<void>> = [];
  async function run(tasks: Array<() => Promise<void>>) {
    const queue = [...tasks];
    const worker = async () => {
      for (let task = queue.shift(); task; task = queue.shift()) await task();
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  }

  // The apex first: does the server answer for the zone at all?
  const soa = await query('@', 'SOA');
  if (!soa) {
    throw invalidInput({ nameserver: [`${targets[0].label} did not answer a query for ${zone} within ${QUERY_TIMEOUT_MS / 1000} s`] });
  }
  if (soa.rcode !== 0 && soa.rcode !== 3) {
    throw invalidInput({ nameserver: [`${targets[0].label} answered ${rcodeName(soa.rcode)} for ${zone}: ${direct ? 'it does not serve this zone' : 'the zone could not be resolved'}`] });
  }
  if (soa.rcode === 3) {
    notes.push(`${zone} does not exist in the DNS ${direct ? `that ${targets[0].label} serves` : 'as the service\u2019s resolver sees it'}: nothing to import.`);
    return { records: [], queried };
  }
  if (!direct) notes.push('Asked through the service\u2019s resolver: TTLs may be lower than the old provider set (what was left of them in its cache).');

  // Which branches exist: a name with nothing at or below it answers NXDOMAIN (RFC 8020), so its children need no asking.
  const exists = async (relative: string) => (await query(relative, 'TXT'))?.rcode !== 3;
  await probeName('*', ['A', 'AAAA', 'TXT', 'MX']);
  await probeName('@', APEX_TYPES);
  const [dkim, tcp, udp] = [await exists('_domainkey'), await exists('_tcp'), await exists('_udp')];

  const tasks: Array<() => Promise<void>> = [
    ...TXT_NAMES.map((name) => () => probeName(name, ['TXT'])),
    ...HOSTS.map((name) => () => probeName(name, ['A', 'AAAA', 'TXT'])),
    ...(dkim ? DKIM_SELECTORS.map((s) => () => probeName(`${s}._domainkey`, ['TXT'])) : []),
    ...(tcp ? SRV_TCP.map((s) => () => probeName(`${s}._tcp`, ['SRV'])) : []),
    ...(udp ? SRV_UDP.map((s) => () => probeName(`${s}._udp`, ['SRV'])) : []),
  ];
  await run(tasks);
  while (later.length > 0) await run(later.splice(0));

  const records = keep(zone, answers, notes);
  notes.push(
    `Probed ${askedNames.size} names (the apex, www, mail and the other names people use, ${dkim ? `${DKIM_SELECTORS.length} DKIM selectors` : 'no DKIM selectors (nothing under _domainkey)'}, ` +
      `mail and chat SRV names${tcp || udp ? '' : ' (none: nothing under _tcp or _udp)'}, and the targets of what was found) with ${queried} queries.`,
  );
  notes.push('A probe cannot guess other names: any other subdomain, DKIM selector or verification record is not in this list. Add those by hand, or ask the old provider for a zone file or a zone transfer.');
  if (wildcard.size > 0) notes.push('The zone has a wildcard (*): names that answered exactly as the wildcard were taken to be the wildcard\u2019s.');
  if (skipped > 0) notes.push(`The probe stopped at its ${limit}-query limit: ${skipped} more queries were not sent.`);
  return { records, queried };
}
