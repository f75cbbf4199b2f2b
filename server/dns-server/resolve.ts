import type { Answer, Packet, Question } from 'dns-packet';
import type { RecordType } from '#core/wire/dns.ts';
import { DNSSEC_TYPE_NUMBERS } from '#core/dns/dnssec.ts';
import { ancestorsOf, isAtOrBelow, parentName, plainName, toAbsolute, toRelative, withoutTrailingDot } from '#core/dns/names.ts';
import { rdataToWire, TYPE_NUMBERS } from '#core/dns/wire-rdata.ts';
import { nextCloser, nsec3Proofs, nsec3Records, nsecAt, nsecCovering, rrsigFor, withSignatures } from './dnssec-answers.ts';
import type { RecordSet, SetType, ZoneSnapshot } from './zone-snapshot.ts';
import type { ZoneSource } from './zone-source.ts';

const FLAG_AA = 0x400;
const FLAG_RD = 0x100;
/** CD (RFC 4035 §3.1.6) is copied from the query into the answer, as RD is. */
const FLAG_CD = 0x10;
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
const QTYPE_ANY = 255;
const QTYPE_AXFR = 252;
const QTYPE_IXFR = 251;
const MAX_CNAME_CHAIN = 8;

export interface ResolveContext {
  zones: ZoneSource;
  /** Whether this client may transfer whole zones (AXFR); only asked over TCP and DoH. */
  mayTransfer: boolean;
  /** The client set the DO bit (RFC 3225): signed zones answer with their RRSIGs and NSEC proofs. */
  dnssecOk?: boolean;
  /** Told the zone that answers, once it is found (query analytics count per zone). */
  onZone?: (zone: string) => void;
}

type Section = Answer[];
export const SET_TYPE_NUMBERS: Record<SetType, number> = {
  ...TYPE_NUMBERS,
  DNSKEY: DNSSEC_TYPE_NUMBERS.DNSKEY,
  CDS: DNSSEC_TYPE_NUMBERS.CDS,
  CDNSKEY: DNSSEC_TYPE_NUMBERS.CDNSKEY,
  NSEC3PARAM: DNSSEC_TYPE_NUMBERS.NSEC3PARAM,
};
const SET_TYPE_BY_NUMBER = new Map(Object.entries(SET_TYPE_NUMBERS).map(([type, n]) => [n, type as SetType]));
const rrWire = (owner: string, type: SetType, ttl: number, data: Uint8Array): Answer =>
  ({ name: owner, type: `UNKNOWN_${SET_TYPE_NUMBERS[type]}`, class: 'IN', ttl, data: Buffer.from(data) }) as unknown as Answer;
const setToAnswers = (owner: string, set: RecordSet): Answer[] =>
  set.wire ? set.wire.map((data) => rrWire(owner, set.type, set.ttl, data)) : set.rdatas.map((rdata) => rr(owner, set.type as RecordType, set.ttl, rdata));
/** A record of a type the service stores, from its presentation form (IXFR and the catalog zone write these). */
export const rr = (owner: string, type: RecordType, ttl: number, rdata: string): Answer => rrWire(owner, type, ttl, rdataToWire(type, rdata));


function reply(query: Packet, rcode: number, authoritative: boolean, sections: { answers?: Section; authorities?: Section; additionals?: Section } = {}): Packet {
  const rd = (query.flags ?? 0) & (FLAG_RD | FLAG_CD);
  return {
    id: query.id ?? 0,
    type: 'response',
    flags: rd | (authoritative ? FLAG_AA : 0) | rcode,
    questions: query.questions ?? [],
    answers: sections.answers ?? [],
    authorities: sections.authorities ?? [],
    additionals: sections.additionals ?? [],
  };
}

const META_TYPES: Record<string, number> = { ANY: QTYPE_ANY, AXFR: QTYPE_AXFR, IXFR: QTYPE_IXFR };

/** dns-packet names the types it knows and writes UNKNOWN_65 for the others; types nobody here holds are -1. */
function qtypeNumber(question: Question): number {
  const type = String(question.type);
  if (type.startsWith('UNKNOWN_')) return Number(type.slice(8));
  return (SET_TYPE_NUMBERS as Record<string, number>)[type] ?? META_TYPES[type] ?? -1;
}

/** The SOA of the zone for a negative answer, its TTL capped by the minimum (RFC 2308 §3). */
function negativeSoa(snapshot: ZoneSnapshot): Answer {
  const soa = snapshot.nodes.get('@')?.get('SOA') as RecordSet;
  return rr(snapshot.zone, 'SOA', negativeTtl(soa), soa.rdatas[0]);
}

/** A negative answer's SOA TTL: the SOA's, capped by its minimum (RFC 2308 §3). */
export const negativeTtl = (soa: RecordSet) => Math.min(soa.ttl, Number(soa.rdatas[0].split(' ')[6]));

/** The names a set's records point to, whose in-zone addresses an answer carries (MX, SRV and NS targets). */
export function pointedNames(set: RecordSet): string[] {
  if (set.type === 'MX') return set.rdatas.map((r) => r.split(' ')[1]);
  if (set.type === 'SRV') return set.rdatas.map((r) => r.split(' ')[3]);
  return set.type === 'NS' ? set.rdatas : [];
}

/** Glue and in-zone addresses of the names an answer points to (NS, MX, SRV targets). */
function addressesFor(snapshot: ZoneSnapshot, targets: string[]): Answer[] {
  const out: Answer[] = [];
  for (const target of targets) {
    const host = withoutTrailingDot(target);
    if (!isAtOrBelow(host, snapshot.zone)) continue;
    const node = snapshot.nodes.get(toRelative(host, snapshot.zone));
    for (const type of ['A', 'AAAA'] as const) {
      const set = node?.get(type);
      if (set) out.push(...setToAnswers(host, set));
    }
  }
  return out;
}

/**
 * Answers one DNS query as the authoritative server of the zones this service holds: RFC 1034 §4.3.2 (referrals
 * with glue at zone cuts, CNAME chains within the zone, NXDOMAIN and NODATA with the SOA), wildcards per RFC 4592,
 * and AXFR for clients allowed to transfer.
 */
export async function resolve(query: Packet, context: ResolveContext): Promise<Packet[]> {
  const questions = query.questions ?? [];
  if (query.type === 'response' || questions.length !== 1) return [reply(query, RCODE.FORMERR, false)];
  const opcode = ((query.flags ?? 0) >> 11) & 0xf;
  if (opcode !== 0) return [reply(query, RCODE.NOTIMP, false)];
  const [question] = questions;
  if (question.class !== 'IN' && question.class !== 'ANY') return [reply(query, RCODE.REFUSED, false)];
  const qname = plainName(question.name);
  const qtype = qtypeNumber(question);
  const snapshot = await context.zones.find(qname);
  if (!snapshot) return [reply(query, RCODE.REFUSED, false)];
  context.onZone?.(snapshot.zone);

  if (qtype === QTYPE_AXFR || qtype === QTYPE_IXFR) {
    if (!context.mayTransfer || qname !== snapshot.zone) return [reply(query, RCODE.REFUSED, false)];
    return transfer(query, snapshot);
  }

  const signed = context.dnssecOk === true && snapshot.signed !== null;
  const answers: Answer[] = [];
  const proofs: Answer[] = [];
  let name = qname;
  let zone = snapshot;
  const negativeSoaSigned = () => {
    const soa = negativeSoa(zone);
    return signed ? [soa, ...rrsigFor(zone, '@', TYPE_NUMBERS.SOA, zone.zone, (soa as { ttl: number }).ttl)] : [soa];
  };
  for (let hop = 0; ; hop += 1) {
    const rel = toRelative(name, zone.zone);
    const result = lookup(zone, rel, qtype, name);
    answers.push(...(signed && result.node ? withSignatures(zone, result.node, result.answers) : result.answers));
    if (signed) proofs.push(...denialProofs(zone, rel, result));
    if (result.kind === 'cname' && hop < MAX_CNAME_CHAIN) {
      const target = withoutTrailingDot(result.target);
      // Only chains within this zone are followed; a resolver follows the rest itself.
      if (isAtOrBelow(target, zone.zone)) {
        name = target;
        continue;
      }
      return [reply(query, RCODE.NOERROR, true, { answers })];
    }
    if (result.kind === 'cname') return [reply(query, RCODE.NOERROR, true, { answers, authorities: proofs })];
    if (result.kind === 'referral') return [reply(query, RCODE.NOERROR, answers.length > 0, { answers, authorities: [...result.authorities, ...proofs], additionals: result.additionals })];
    if (result.kind === 'nxdomain') return [reply(query, RCODE.NXDOMAIN, true, { answers, authorities: [...negativeSoaSigned(), ...proofs] })];
    if (result.kind === 'nodata') return [reply(query, RCODE.NOERROR, true, { answers, authorities: [...negativeSoaSigned(), ...proofs] })];
    return [reply(query, RCODE.NOERROR, true, { answers, authorities: proofs, additionals: result.additionals })];
  }
}

/**
 * The NSEC records a validator needs besides the answer's own signatures (RFC 4035 §3.1.3): for NXDOMAIN, the one
 * covering the name and the one covering the wildcard at its closest encloser; for NODATA, the name's own (or,
 * for an empty non-terminal, the one covering it; for a wildcard, both); for a wildcard answer, the one proving no
 * closer name; for a referral, the delegation's signed DS, or its NSEC proving it has none.
 */
function denialProofs(snapshot: ZoneSnapshot, rel: string, result: Lookup): Answer[] {
  if (snapshot.signed?.nsec3) return nsec3DenialProofs(snapshot, rel, result);
  switch (result.kind) {
    case 'nxdomain':
      return nsecCovering(snapshot, [rel, result.encloser === '@' ? '*' : `*.${result.encloser}`]);
    case 'nodata':
      if (result.wildcard) return nsecCovering(snapshot, [rel, result.node as string]);
      return result.node ? nsecAt(snapshot, result.node) : nsecCovering(snapshot, [rel]);
    case 'answer':
    case 'cname':
      return result.wildcard ? nsecCovering(snapshot, [rel]) : [];
    case 'referral': {
      const ds = snapshot.nodes.get(result.node as string)?.get('DS');
      if (!ds) return nsecAt(snapshot, result.node as string);
      const owner = toAbsolute(result.node as string, snapshot.zone);
      return [...setToAnswers(owner, ds), ...rrsigFor(snapshot, result.node as string, TYPE_NUMBERS.DS, owner, ds.ttl)];
    }
  }
}

/**
 * The same with NSEC3 (RFC 5155 §7.2.1-7.2.6): for NXDOMAIN the closest encloser proof (its NSEC3, and the ones
 * covering the next closer name and the wildcard there); for NODATA the name's own; for a wildcard, the NSEC3 covering
 * the next closer name (and for a wildcard NODATA the encloser's and the wildcard's); for an unsigned delegation its
 * own, or the opt-out proof.
 */
function nsec3DenialProofs(snapshot: ZoneSnapshot, rel: string, result: Lookup): Answer[] {
  const wildcardEncloser = (node: string) => parentName(node) ?? '@';
  switch (result.kind) {
    case 'nxdomain': {
      const encloser = result.encloser;
      return nsec3Proofs(snapshot, { matching: [encloser], covered: [nextCloser(rel, encloser), encloser === '@' ? '*' : `*.${encloser}`] });
    }
    case 'nodata': {
      if (!result.wildcard) return nsec3Proofs(snapshot, { matching: [rel] });
      const encloser = wildcardEncloser(result.node as string);
      return nsec3Proofs(snapshot, { matching: [encloser, result.node as string], covered: [nextCloser(rel, encloser)] });
    }
    case 'answer':
    case 'cname':
      return result.wildcard ? nsec3Proofs(snapshot, { covered: [nextCloser(rel, wildcardEncloser(result.node as string))] }) : [];
    case 'referral': {
      const ds = snapshot.nodes.get(result.node as string)?.get('DS');
      if (!ds) return nsec3Proofs(snapshot, { matching: [result.node as string] });
      const owner = toAbsolute(result.node as string, snapshot.zone);
      return [...setToAnswers(owner, ds), ...rrsigFor(snapshot, result.node as string, TYPE_NUMBERS.DS, owner, ds.ttl)];
    }
  }
}

/** `node`: the name whose sets answered (the wildcard's for a wildcard answer), or the delegation of a referral. */
type Found = { node?: string; wildcard?: boolean };
type Lookup = Found &
  (
    | { kind: 'answer'; answers: Answer[]; additionals: Answer[] }
    | { kind: 'cname'; answers: Answer[]; target: string }
    | { kind: 'referral'; answers: Answer[]; authorities: Answer[]; additionals: Answer[] }
    | { kind: 'nodata'; answers: Answer[] }
    | { kind: 'nxdomain'; answers: Answer[]; encloser: string }
  );

function lookup(snapshot: ZoneSnapshot, rel: string, qtype: number, owner: string): Lookup {
  // A zone cut above the name (or at it, except for DS, which the parent answers) hands the query down.
  const cuts = [...ancestorsOf(rel).reverse(), rel].filter((n) => n !== '@');
  for (const cut of cuts) {
    const ns = snapshot.nodes.get(cut)?.get('NS');
    if (!ns || (cut === rel && qtype === TYPE_NUMBERS.DS)) continue;
    const cutName = toAbsolute(cut, snapshot.zone);
    return { kind: 'referral', node: cut, answers: [], authorities: setToAnswers(cutName, ns), additionals: addressesFor(snapshot, ns.rdatas) };
  }
  let found: Found = { node: rel };
  let node = snapshot.nodes.get(rel);
  if (!node && !snapshot.interior.has(rel)) {
    // RFC 4592: the closest encloser's wildcard, if it has one, answers in the name's place.
    const encloser = ancestorsOf(rel).find((n) => snapshot.nodes.has(n) || snapshot.interior.has(n)) ?? '@';
    const wildcard = encloser === '@' ? '*' : `*.${encloser}`;
    node = snapshot.nodes.get(wildcard);
    if (!node) return { kind: 'nxdomain', answers: [], encloser };
    found = { node: wildcard, wildcard: true };
  }
  if (!node) return { kind: 'nodata', answers: [] };
  const cname = node.get('CNAME');
  if (cname && qtype !== TYPE_NUMBERS.CNAME && qtype !== QTYPE_ANY) {
    return { ...found, kind: 'cname', answers: setToAnswers(owner, cname), target: cname.rdatas[0] };
  }
  // RFC 8482: ANY is answered with one RRset, so it cannot be used to amplify.
  const sets = qtype === QTYPE_ANY ? [...node.values()].slice(0, 1) : [node.get(SET_TYPE_BY_NUMBER.get(qtype) as SetType)].filter((s): s is RecordSet => s !== undefined);
  if (sets.length === 0) return { ...found, kind: 'nodata', answers: [] };
  const answers = sets.flatMap((set) => setToAnswers(owner, set));
  const targets = sets.flatMap(pointedNames);
  return { ...found, kind: 'answer', answers, additionals: addressesFor(snapshot, targets) };
}

/** AXFR (RFC 5936): the SOA, every record (of a signed zone, its RRSIGs and NSEC chain too), the SOA again; in messages of at most 500 records. */
function transfer(query: Packet, snapshot: ZoneSnapshot): Packet[] {
  const soa = setToAnswers(snapshot.zone, snapshot.nodes.get('@')?.get('SOA') as RecordSet);
  const all: Answer[] = [];
  for (const [name, node] of snapshot.nodes) {
    const owner = toAbsolute(name, snapshot.zone);
    for (const set of node.values()) if (!(name === '@' && set.type === 'SOA')) all.push(...setToAnswers(owner, set));
    if (!snapshot.signed) continue;
    // The NSEC and its RRSIG, then the other sets' RRSIGs, each with its set's TTL.
    all.push(...nsecAt(snapshot, name));
    for (const type of snapshot.signed.rrsigs.get(name)?.keys() ?? []) {
      const set = node.get(SET_TYPE_BY_NUMBER.get(type) as SetType);
      if (set) all.push(...rrsigFor(snapshot, name, type, owner, set.ttl));
    }
  }
  all.push(...nsec3Records(snapshot));
  const records = [...soa, ...all, ...soa];
  const messages: Packet[] = [];
  for (let i = 0; i < records.length; i += 500) messages.push(reply(query, RCODE.NOERROR, true, { answers: records.slice(i, i + 500) }));
  return messages;
}

export { RCODE };
