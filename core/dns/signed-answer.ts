import type { RecordType } from '../wire/dns.ts';
import { canonicalRdata, DNSSEC_TYPE_NUMBERS, parseRrsig, typeNumber } from './dnssec.ts';
import type { DnsResponse } from './message.ts';
import { sameName } from './names.ts';
import { verifyRrsig } from './rrsig-verify.ts';

export type SignedVerdict = { signed: true; keyTag: number; expires: Date } | { signed: false; reason: string };


/** The RRSIG data over `type` at `owner`; one too short to read covers nothing. */
function signaturesOver(response: DnsResponse, owner: string, type: number) {
  const covers = (data: Uint8Array) => data.length >= 18 && parseRrsig(data).typeCovered === type;
  return response.raw.filter((r) => r.type === DNSSEC_TYPE_NUMBERS.RRSIG && sameName(r.name, owner) && covers(r.data)).map((r) => r.data);
}

/**
 * Whether an answer for `fqdn`/`type` is signed by its zone: the zone's DNSKEY set must be signed by one of its own
 * keys, and the answered set by one of those keys. Both responses were asked with the DO bit. Says why not in words.
 */
export async function checkSignedAnswer(input: { zone: string; fqdn: string; type: RecordType; answer: DnsResponse; dnskey: DnsResponse; now: Date }): Promise<SignedVerdict> {
  const { zone, fqdn, type, answer, dnskey, now } = input;
  const rdatas = answer.answers.filter((a) => sameName(a.name, fqdn) && a.type === type).map((a) => canonicalRdata(type, a.rdata));
  if (rdatas.length === 0) return { signed: false, reason: `DNS answers no ${type} record to check` };
  const rrsigs = signaturesOver(answer, fqdn, typeNumber(type));
  if (rrsigs.length === 0) return { signed: false, reason: 'the answer carries no signature (the zone is not signed)' };
  const keys = dnskey.raw.filter((r) => r.type === DNSSEC_TYPE_NUMBERS.DNSKEY && sameName(r.name, zone)).map((r) => r.data);
  if (keys.length === 0) return { signed: false, reason: `${zone} publishes no DNSKEY` };
  const keyChecks = await Promise.all(
    signaturesOver(dnskey, zone, DNSSEC_TYPE_NUMBERS.DNSKEY).map((rrsig) => verifyRrsig({ zone, owner: zone, type: DNSSEC_TYPE_NUMBERS.DNSKEY, rdatas: keys, rrsig, dnskeys: keys, now })),
  );
  if (!keyChecks.some((v) => v.ok)) return { signed: false, reason: `the DNSKEY set of ${zone} is not signed by its own key` };
  let reason = '';
  for (const rrsig of rrsigs) {
    const verdict = await verifyRrsig({ zone, owner: fqdn, type: typeNumber(type), rdatas, rrsig, dnskeys: keys, now });
    if (verdict.ok) return { signed: true, keyTag: verdict.keyTag, expires: verdict.expires };
    reason = verdict.reason;
  }
  return { signed: false, reason };
}
