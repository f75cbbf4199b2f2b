import type { Answer } from 'dns-packet';
import { DNSSEC_TYPE_NUMBERS } from '#core/dns/dnssec.ts';
import { parentName, toAbsolute } from '#core/dns/names.ts';
import { coveringLabel, nsec3Label, type Nsec3Chain } from '../dnssec/nsec3.ts';
import { coveringNsec, type SignedZone } from '../dnssec/sign-zone.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';

/** What resolve.ts adds to answers for a client that set the DO bit (RFC 4035 §3.1), from a signed snapshot. */

const raw = (owner: string, type: number, ttl: number, data: Uint8Array): Answer =>
  ({ name: owner, type: `UNKNOWN_${type}`, class: 'IN', ttl, data: Buffer.from(data) }) as unknown as Answer;

/**
 * The RRSIG over the set of `type` at `node`, served at `owner` (the query's name for a wildcard answer); during an
 * algorithm rollover, the new key's beside it.
 */
export function rrsigFor(snapshot: ZoneSnapshot, node: string, type: number, owner: string, ttl: number): Answer[] {
  const rrsig = snapshot.signed?.rrsigs.get(node)?.get(type);
  const out = rrsig ? [raw(owner, DNSSEC_TYPE_NUMBERS.RRSIG, ttl, rrsig)] : [];
  const also = snapshot.signed?.also?.rrsigs.get(node)?.get(type);
  if (also) out.push(raw(owner, DNSSEC_TYPE_NUMBERS.RRSIG, ttl, also));
  return out;
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

/** The NSEC3 at hashed owner `label` with its RRSIG. */
function nsec3At(snapshot: ZoneSnapshot, label: string): Answer[] {
  const signed = snapshot.signed as SignedZone;
  const data = signed.nsec3?.records.get(label);
  if (!data) return [];
  const name = toAbsolute(label, snapshot.zone);
  return [raw(name, DNSSEC_TYPE_NUMBERS.NSEC3, signed.nsecTtl, data), ...rrsigFor(snapshot, label, DNSSEC_TYPE_NUMBERS.NSEC3, name, signed.nsecTtl)];
}

/** Every NSEC3 of the chain with its RRSIG, as AXFR sends them. */
export function nsec3Records(snapshot: ZoneSnapshot): Answer[] {
  return (snapshot.signed?.nsec3?.hashes ?? []).flatMap((label) => nsec3At(snapshot, label));
}

/** The name one label longer than `encloser` on the way down to `rel` (RFC 5155 §1.3, "next closer name"). */
export function nextCloser(rel: string, encloser: string): string {
  let name = rel;
  for (let above = parentName(name); above !== null && above !== encloser; above = parentName(above)) name = above;
  return name;
}

/**
 * Proofs with NSEC3 (RFC 5155 §7.2): `matching` names must have an NSEC3 of their own; `covered` names must not.
 * A matching name without one (a delegation left out of an opted-out chain) gets the closest provable encloser
 * proof instead: the NSEC3 of its nearest ancestor that has one, and the opt-out NSEC3 covering the next closer name.
 */
export function nsec3Proofs(snapshot: ZoneSnapshot, proof: { matching?: string[]; covered?: string[] }): Answer[] {
  const chain = (snapshot.signed as SignedZone).nsec3 as Nsec3Chain;
  const labels = new Set<string>();
  const cover = (rel: string) => labels.add(coveringLabel(chain, nsec3Label(snapshot.zone, rel)));
  for (const rel of proof.matching ?? []) {
    let encloser: string | null = rel;
    while (encloser !== null && !chain.records.has(nsec3Label(snapshot.zone, encloser))) encloser = parentName(encloser);
    labels.add(nsec3Label(snapshot.zone, encloser ?? '@'));
    if (encloser !== rel) cover(nextCloser(rel, encloser ?? '@'));
  }
  for (const rel of proof.covered ?? []) cover(rel);
  return [...labels].flatMap((label) => nsec3At(snapshot, label));
}
