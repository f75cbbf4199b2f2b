import { rcodeName, type DnsAnswer } from '#core/dns/message.ts';
import { askDns as ask } from '@/lib/dns-over-https.ts';
import { checkSignedAnswer, type SignedVerdict } from '#core/dns/signed-answer.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { plainName } from '#core/dns/names.ts';

export interface LiveCheck {
  /** True when DNS answers this very record now. */
  live: boolean;
  /** What DNS answers for the name and type now (a CNAME chain included). */
  answers: DnsAnswer[];
  /** NOERROR, NXDOMAIN… */
  status: string;
  /** Seconds a resolver may keep its answer: how long until caches everywhere see a change of this record. */
  ttlLeft: number | null;
  /** Whether the answer is signed by the zone's key (checked here, in the browser), or why not. */
  signed: SignedVerdict;
}

/**
 * Asks the configured DoH resolver (RFC 8484, GET with ?dns=) what DNS answers for a record now. Locally that is the
 * service's own /dns-query; against production a public resolver. Its answer's TTL is what caches may still hold.
 * Asked with the DO bit, and the zone's DNSKEY too, so the answer's signature is checked here (WebCrypto).
 */
export async function checkLive(dohUrl: string, record: { zone: string; fqdn: string; type: RecordType; rdata: string }, signal?: AbortSignal): Promise<LiveCheck> {
  // The key is only for the "signed" verdict: a resolver that fails that question still answers whether it is live.
  const [decoded, dnskey] = await Promise.all([ask(dohUrl, record.fqdn, record.type, signal), ask(dohUrl, record.zone, 'DNSKEY', signal).catch((error: Error) => error)]);
  const signed: SignedVerdict =
    dnskey instanceof Error
      ? { signed: false, reason: `could not ask for the zone's DNSKEY (${dnskey.message})` }
      : await checkSignedAnswer({ zone: record.zone, fqdn: record.fqdn, type: record.type, answer: decoded, dnskey, now: new Date() });
  const own = decoded.answers.filter((a) => a.name === plainName(record.fqdn) && a.type === record.type);
  const match = own.find((a) => a.rdata === record.rdata);
  return { live: match !== undefined, answers: decoded.answers, status: rcodeName(decoded.rcode), ttlLeft: match?.ttl ?? own[0]?.ttl ?? null, signed };
}

/** What an ALIAS answers now: the addresses DNS gives at its name (A and AAAA), which are its target's as last followed. */
export interface AliasLiveCheck extends LiveCheck {
  addresses: string[];
}

/**
 * "Is it live?" for an ALIAS: DNS never answers an ALIAS as such, so this asks for the A and AAAA at its name and says
 * which addresses it resolves to now; the signed verdict is the A answer's (the AAAA's when there is no A).
 */
export async function checkAliasLive(dohUrl: string, record: { zone: string; fqdn: string }, signal?: AbortSignal): Promise<AliasLiveCheck> {
  const [a, aaaa, dnskey] = await Promise.all([
    ask(dohUrl, record.fqdn, 'A', signal),
    ask(dohUrl, record.fqdn, 'AAAA', signal),
    ask(dohUrl, record.zone, 'DNSKEY', signal).catch((error: Error) => error),
  ]);
  const name = plainName(record.fqdn);
  const own = [...a.answers, ...aaaa.answers].filter((x) => x.name === name && (x.type === 'A' || x.type === 'AAAA'));
  const type = own.some((x) => x.type === 'A') || own.length === 0 ? 'A' : 'AAAA';
  const answer = type === 'A' ? a : aaaa;
  const signed: SignedVerdict =
    dnskey instanceof Error
      ? { signed: false, reason: `could not ask for the zone's DNSKEY (${dnskey.message})` }
      : await checkSignedAnswer({ zone: record.zone, fqdn: record.fqdn, type, answer, dnskey, now: new Date() });
  return {
    live: own.length > 0,
    answers: own,
    addresses: own.map((x) => x.rdata),
    status: rcodeName(a.rcode),
    ttlLeft: own.length > 0 ? Math.min(...own.map((x) => x.ttl)) : null,
    signed,
  };
}
