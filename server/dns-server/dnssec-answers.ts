import type { Answer } from 'dns-packet';
import { DNSSEC_TYPE_NUMBERS } from '#core/dns/dnssec.ts';
import { toAbsolute } from '#core/dns/names.ts';
import { coveringNsec, type SignedZone } from '../dnssec/sign-zone.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';

/** What resolve.ts adds to answers for a client that set the DO bit (RFC 4035 §3.1), from a signed snapshot. */

const raw = (owner: string, type: number, ttl: number, data: Uint8Array): Answer =>
  ({ name: owner, type: `UNKNOWN_${type}`, class: 'IN', ttl, data: Buffer.from(data) }) as unknown as Answer;

/** The RRSIG over the set of `type` at `node`, served at `owner` (the query's name for a wildcard answer). */
export function rrsigFor(snapshot: ZoneSnapshot, node: string, type: number, owner: string, ttl: number): Answer[] {
  const rrsig = snapshot.signed?.rrsigs.get(node)?.get(type);
  return rrsig ? [raw(owner, DNSSEC_TYPE_NUMBERS.RRSIG, ttl, rrsig)] : [];
}

/** The NSEC at `owner` (a relative name in the chain) with its RRSIG. */
export function nsecAt(snapshot: ZoneSnapshot, owner: string): Answer[] {
  const signed = snapshot.signed as SignedZone;
  const data = signed.nsec.get(owner);
  if (!data) return [];
  const name = toAbsolute(owner, snapshot.zone);
  return [raw(name, DNSSEC_TYPE_NUMBERS.NSEC, signed.nsecTtl, data), ...rrsigFor(snapshot, owner, DNSSEC_TYPE_NUMBERS.NSEC, name, signed.nsecTtl)];
}

/** The NSEC records (with RRSIGs) that match or cover each name, each once. */
export function nsecCovering(snapshot: ZoneSnapshot, names: string[]): Answer[] {
  const owners = new Set(names.map((n) => coveringNsec(snapshot.signed as SignedZone, snapshot.zone, n)));
  return [...owners].flatMap((owner) => nsecAt(snapshot, owner));
}

/** Each answered set's RRSIG, after the set's records: answers arrive grouped by owner and type. */
export function withSignatures(snapshot: ZoneSnapshot, node: string, answers: Answer[]): Answer[] {
  const out: Answer[] = [];
  const seen = new Set<string>();
  for (const answer of answers) out.push(answer);
  for (const answer of answers) {
    const type = Number(String(answer.type).slice('UNKNOWN_'.length));
    const key = `${answer.name}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(...rrsigFor(snapshot, node, type, answer.name, (answer as { ttl: number }).ttl));
  }
  return out;
}
