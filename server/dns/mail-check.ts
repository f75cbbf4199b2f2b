import { createPublicKey } from 'node:crypto';
import type { MailFinding } from '#core/wire/mail.ts';
import { txtToWire } from '#core/dns/rdata.ts';
import { isSpf, spfProblems } from '#core/mail/spf.ts';
import type { Lookup, NameResolver } from './resolver.ts';

/**
 * The mail authentication check (contract: "Mail authentication check"): SPF, DMARC, DKIM at the common selectors,
 * MX targets, MTA-STS and TLS-RPT, each a finding in words with, where one record fixes it, that record. Knows
 * nothing of HTTP: it is given a zone and a resolver.
 */

/** The selectors the big mail providers publish DKIM keys at (Google, Microsoft 365, Fastmail, Proton, Zoho, the usual defaults). */
const DKIM_SELECTORS = ['google', 'selector1', 'selector2', 'k1', 'default', 'dkim', 's1', 's2', 'fm1', 'fm2', 'fm3', 'protonmail', 'protonmail2', 'protonmail3', 'zoho'] as const;

/** RFC 7208 §4.6.4: at most 10 mechanisms and modifiers that cause DNS lookups in one SPF evaluation. */
const SPF_LOOKUP_LIMIT = 10;

const LOOKUP_TERMS = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
const SPF_DEPTH_LIMIT = 20;

const txt = (text: string) => txtToWire(text);
const texts = (answer: Lookup) => (answer.status === 'ok' ? answer.values : []);

export async function checkMail(zoneName: string, resolver: NameResolver): Promise<MailFinding[]> {
  const findings: MailFinding[] = [];
  const [apexTxt, mx] = await Promise.all([resolver.lookup(zoneName, 'TXT'), resolver.lookup(zoneName, 'MX')]);
  const mxValues = texts(mx);
  const receivesMail = mxValues.some((v) => v.split(' ')[1] !== '.');

  findings.push(...(await checkSpf(zoneName, texts(apexTxt), receivesMail, resolver)));
  findings.push(...(await checkDmarc(zoneName, resolver)));
  findings.push(...(await checkDkim(zoneName, resolver)));
  findings.push(...(await checkMx(mx, resolver)));
  if (receivesMail) findings.push(...(await checkTransportSecurity(zoneName, resolver)));
  return findings;
}

// --- SPF ---------------------------------------------------------------------------------------------------------

interface SpfCount {
  lookups: number;
  /** The chain of includes and redirects at which the count went past the limit. */
  overflow: string[] | null;
  problems: string[];
}

/** Counts the lookups one evaluation of `domain`'s SPF record makes, following include: and redirect=. */
async function countLookups(domain: string, record: string, chain: string[], count: SpfCount, resolver: NameResolver, seen: Set<string>): Promise<void> {
  const terms = record.trim().split(/\s+/).slice(1);
  for (const term of terms) {
    const lower = term.toLowerCase();
    const modifier = /^([a-z][a-z0-9_.-]*)=(.*)$/i.exec(term);
    const name = modifier ? modifier[1].toLowerCase() : lower.replace(/^[+?~-]/, '').split(/[:/]/)[0];
    if (!(modifier ? name === 'redirect' : LOOKUP_TERMS.has(name))) continue;
    count.lookups += 1;
    const here = [...chain, term];
    if (count.lookups > SPF_LOOKUP_LIMIT && !count.overflow) count.overflow = here;
    if (name !== 'include' && name !== 'redirect') continue;
    const target = (modifier ? modifier[2] : term.slice(term.indexOf(':') + 1)).toLowerCase().replace(/\.$/, '');
    if (target.includes('%')) continue; // a macro: known only when mail arrives
    if (seen.has(target) || here.length > SPF_DEPTH_LIMIT) {
      count.problems.push(`${here.join(' → ')} loops back to ${target}`);
      continue;
    }
    const answer = await resolver.lookup(target, 'TXT');
    if (answer.status === 'unresolved') {
      count.problems.push(`${term} (in ${domain}) could not be resolved: ${answer.reason}`);
      continue;
    }
    const records = texts(answer).filter(isSpf);
    if (records.length !== 1) {
      count.problems.push(`${term} (in ${domain}) leads to ${records.length === 0 ? 'no SPF record' : `${records.length} SPF records`}: receivers answer "permerror"`);
      continue;
    }
    await countLookups(target, records[0], here, count, resolver, new Set([...seen, target]));
  }
}

async function checkSpf(zoneName: string, apexTexts: string[], receivesMail: boolean, resolver: NameResolver): Promise<MailFinding[]> {
  const records = apexTexts.filter(isSpf);
  if (records.length === 0) {
    const rdata = receivesMail ? 'v=spf1 mx ~all' : 'v=spf1 -all';
    return [
      {
        id: 'spf-missing',
        severity: receivesMail ? 'error' : 'warning',
        message: receivesMail
          ? 'There is no SPF record, so receivers cannot tell which servers may send mail as this domain; much of its mail will land in spam.'
          : 'There is no SPF record. If this domain sends no mail, a record saying so ("v=spf1 -all") stops others sending as it.',
        fix: { name: '@', type: 'TXT', rdata: txt(rdata) },
      },
    ];
  }
  if (records.length > 1) {
    return [
      {
        id: 'spf-multiple',
        severity: 'error',
        record: records.join(' | '),
        message: `There are ${records.length} SPF records at the apex. RFC 7208 allows one: receivers answer "permerror" and treat the mail as unauthenticated. Merge them into one record.`,
      },
    ];
  }
  const record = records[0];
  const findings: MailFinding[] = [];
  const problems = spfProblems(record);
  if (problems.length > 0) {
    findings.push({ id: 'spf-syntax', severity: 'error', record, message: `The SPF record is malformed: ${problems.join('; ')}. Receivers answer "permerror" and ignore it.` });
    return findings;
  }
  const terms = record.trim().toLowerCase().split(/\s+/).slice(1);
  if (terms.includes('+all') || terms.includes('all')) {
    findings.push({
      id: 'spf-pass-all',
      severity: 'error',
      record,
      message: '"+all" lets every server on the internet send mail as this domain: the record authorises everyone. End it with "~all" (soft fail) or "-all" (fail).',
      fix: { name: '@', type: 'TXT', rdata: txt(record.trim().replace(/(^|\s)\+?all(?=\s|$)/i, '$1~all')) },
    });
  }
  const count: SpfCount = { lookups: 0, overflow: null, problems: [] };
  await countLookups(zoneName, record, [], count, resolver, new Set([zoneName]));
  if (count.overflow) {
    findings.push({
      id: 'spf-too-many-lookups',
      severity: 'error',
      record,
      message: `The SPF record needs ${count.lookups} DNS lookups; RFC 7208 §4.6.4 allows ${SPF_LOOKUP_LIMIT}, so receivers answer "permerror" and the mail fails SPF. The 11th lookup is at ${count.overflow.join(' → ')}. Replace includes by the ip4:/ip6: ranges they list, or drop senders you no longer use.`,
    });
  }
  for (const problem of count.problems) findings.push({ id: 'spf-include', severity: 'error', record, message: `The SPF record refers to something broken: ${problem}.` });
  if (findings.length === 0) findings.push({ id: 'spf-ok', severity: 'ok', record, message: `One SPF record, well formed, ${count.lookups} of ${SPF_LOOKUP_LIMIT} DNS lookups.` });
  return findings;
}

// --- DMARC -------------------------------------------------------------------------------------------------------

function tags(record: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return out;
}

async function checkDmarc(zoneName: string, resolver: NameResolver): Promise<MailFinding[]> {
  const answer = await resolver.lookup(`_dmarc.${zoneName}`, 'TXT');
  const records = texts(answer).filter((t) => /^v=DMARC1\s*(;|$)/i.test(t.trim()));
  const suggested = `v=DMARC1; p=none; rua=mailto:dmarc@${zoneName}`;
  if (records.length === 0) {
    return [
      {
        id: 'dmarc-missing',
        severity: 'error',
        message: 'There is no DMARC record at _dmarc: receivers have no policy for mail that fails SPF and DKIM, Gmail and Yahoo refuse bulk mail without one, and you get no reports of who sends as this domain. Start with p=none to collect reports, then tighten.',
        fix: { name: '_dmarc', type: 'TXT', rdata: txt(suggested) },
      },
    ];
  }
  if (records.length > 1) return [{ id: 'dmarc-multiple', severity: 'error', record: records.join(' | '), message: `There are ${records.length} DMARC records at _dmarc; receivers ignore them all (RFC 7489 §6.6.3). Keep one.` }];
  const record = records[0];
  const t = tags(record);
  const policy = t.get('p')?.toLowerCase();
  const findings: MailFinding[] = [];
  if (!policy || !['none', 'quarantine', 'reject'].includes(policy)) {
    findings.push({
      id: 'dmarc-policy',
      severity: 'error',
      record,
      message: `The DMARC record has ${policy ? `an unknown policy "p=${policy}"` : 'no policy (p=)'}: receivers ignore it. Use p=none, p=quarantine or p=reject.`,
      fix: { name: '_dmarc', type: 'TXT', rdata: txt(t.has('rua') ? `v=DMARC1; p=none; rua=${t.get('rua')}` : suggested) },
    });
  } else if (policy === 'none') {
    findings.push({ id: 'dmarc-policy', severity: 'warning', record, message: 'The DMARC policy is p=none: receivers only report mail that fails, they do not stop it. Once the reports show only your own senders, move to p=quarantine, then p=reject.' });
  }
  if (!t.get('rua')) {
    findings.push({
      id: 'dmarc-rua',
      severity: 'warning',
      record,
      message: 'The DMARC record asks for no aggregate reports (rua=): you will not learn who sends mail as this domain, or whether your own mail passes.',
      fix: { name: '_dmarc', type: 'TXT', rdata: txt(`${record.trim().replace(/;\s*$/, '')}; rua=mailto:dmarc@${zoneName}`) },
    });
  }
  if (findings.length === 0) findings.push({ id: 'dmarc-ok', severity: 'ok', record, message: `DMARC is published with p=${policy} and reports go to ${t.get('rua')}.` });
  return findings;
}

// --- DKIM --------------------------------------------------------------------------------------------------------

/** The key's type and size in bits from a DKIM record's k= and p=, or why it is unusable. */
function dkimKey(record: string): { type: string; bits: number } | { problem: string } {
  const t = tags(record);
  const type = (t.get('k') ?? 'rsa').toLowerCase();
  const p = (t.get('p') ?? '').replace(/\s+/g, '');
  if (!t.has('p')) return { problem: 'it has no public key (p=)' };
  if (p === '') return { problem: 'its key is revoked (empty p=)' };
  if (type === 'ed25519') return Buffer.from(p, 'base64').length === 32 ? { type, bits: 256 } : { problem: 'its ed25519 key is not 32 bytes' };
  if (type !== 'rsa') return { problem: `its key type k=${type} is unknown` };
  try {
    const key = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    const bits = key.asymmetricKeyDetails?.modulusLength;
    return bits ? { type, bits } : { problem: 'its key is not an RSA key' };
  } catch {
    return { problem: 'its key (p=) is not a valid base64 RSA public key' };
  }
}

async function checkDkim(zoneName: string, resolver: NameResolver): Promise<MailFinding[]> {
  const answers = await Promise.all(DKIM_SELECTORS.map(async (selector) => ({ selector, answer: await resolver.lookup(`${selector}._domainkey.${zoneName}`, 'TXT') })));
  const findings: MailFinding[] = [];
  for (const { selector, answer } of answers) {
    const record = texts(answer).find((t) => /(^|;)\s*(v=DKIM1|k=|p=)/i.test(t));
    if (!record) continue;
    const key = dkimKey(record);
    if ('problem' in key) {
      findings.push({ id: 'dkim-key', severity: 'error', record, message: `The DKIM record at selector "${selector}" is unusable: ${key.problem}. Mail signed with it fails DKIM.` });
    } else if (key.type === 'rsa' && key.bits < 1024) {
      findings.push({ id: 'dkim-key', severity: 'error', record, message: `The DKIM key at selector "${selector}" is RSA ${key.bits} bits: receivers reject keys under 1024 bits (RFC 8301). Publish a 2048-bit key from your mail provider.` });
    } else if (key.type === 'rsa' && key.bits < 2048) {
      findings.push({ id: 'dkim-key', severity: 'warning', record, message: `The DKIM key at selector "${selector}" is RSA ${key.bits} bits; 2048 bits is the current advice. Your mail provider can rotate to a longer key.` });
    } else {
      findings.push({ id: 'dkim-ok', severity: 'ok', record, message: `DKIM key found at selector "${selector}": ${key.type.toUpperCase()} ${key.bits} bits.` });
    }
  }
  if (findings.length === 0) {
    findings.push({
      id: 'dkim-missing',
      severity: 'warning',
      message: `No DKIM key at the common selectors (${DKIM_SELECTORS.join(', ')}). Without DKIM, forwarded mail fails DMARC. Your mail provider gives the record to publish (its selector may be another one, which this check cannot guess).`,
    });
  }
  return findings;
}

// --- MX, MTA-STS, TLS-RPT ----------------------------------------------------------------------------------------

async function checkMx(mx: Lookup, resolver: NameResolver): Promise<MailFinding[]> {
  const values = texts(mx);
  if (values.length === 0) {
    return [{ id: 'mx-none', severity: 'warning', message: 'There is no MX record: this domain receives no mail. If that is meant, a null MX ("0 .", RFC 7505) says so to senders at once.' }];
  }
  if (values.length === 1 && values[0].split(' ')[1] === '.') return [{ id: 'mx-null', severity: 'ok', record: values[0], message: 'A null MX says this domain receives no mail (RFC 7505).' }];
  const findings: MailFinding[] = [];
  for (const value of values) {
    const host = value.split(' ')[1];
    const [a, aaaa] = await Promise.all([resolver.lookup(host, 'A'), resolver.lookup(host, 'AAAA')]);
    const addresses = [...texts(a), ...texts(aaaa)];
    if (addresses.length > 0) continue;
    const unresolved = [a, aaaa].find((x) => x.status === 'unresolved');
    findings.push(
      unresolved
        ? { id: 'mx-unresolved', severity: 'warning', record: value, message: `The mail server ${host} could not be checked: ${(unresolved as { reason: string }).reason}.` }
        : { id: 'mx-target', severity: 'error', record: value, message: `The mail server ${host} has no address (${a.status === 'nxdomain' ? 'the name does not exist' : 'no A or AAAA record'}): mail sent to this domain through it bounces.` },
    );
  }
  if (findings.length === 0) findings.push({ id: 'mx-ok', severity: 'ok', record: values.join(', '), message: `Every mail server (${values.map((v) => v.split(' ')[1]).join(', ')}) has an address.` });
  return findings;
}

async function checkTransportSecurity(zoneName: string, resolver: NameResolver): Promise<MailFinding[]> {
  const [sts, rpt] = await Promise.all([resolver.lookup(`_mta-sts.${zoneName}`, 'TXT'), resolver.lookup(`_smtp._tls.${zoneName}`, 'TXT')]);
  const findings: MailFinding[] = [];
  const stsRecord = texts(sts).find((t) => /^v=STSv1\s*;/i.test(t.trim()));
  findings.push(
    stsRecord
      ? { id: 'mta-sts-ok', severity: 'ok', record: stsRecord, message: 'MTA-STS is announced: senders that support it insist on TLS to your mail servers (the policy file at https://mta-sts.<domain>/.well-known/mta-sts.txt is not checked here).' }
      : { id: 'mta-sts-missing', severity: 'warning', message: 'No MTA-STS record (_mta-sts): a network attacker can strip TLS from mail sent to you. It needs a policy file served over HTTPS as well, so it is advice, not a fault.' },
  );
  const rptRecord = texts(rpt).find((t) => /^v=TLSRPTv1\s*;/i.test(t.trim()));
  findings.push(
    rptRecord
      ? { id: 'tls-rpt-ok', severity: 'ok', record: rptRecord, message: 'TLS-RPT is published: senders report failed TLS deliveries to you.' }
      : {
          id: 'tls-rpt-missing',
          severity: 'warning',
          message: 'No TLS-RPT record (_smtp._tls): you will not hear when senders fail to reach your mail servers over TLS.',
          fix: { name: '_smtp._tls', type: 'TXT', rdata: txt(`v=TLSRPTv1; rua=mailto:tls-reports@${zoneName}`) },
        },
  );
  return findings;
}
