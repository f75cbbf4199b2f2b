import type { Answer, Packet, Question } from 'dns-packet';
import { RECORD_TYPES, type RecordType } from '../../src/core/wire/dns.ts';
import { rdataToWire, TYPE_NUMBERS, typeByNumber } from '../../src/core/dns/wire-rdata.ts';
import type { RecordSet, ZoneSnapshot, ZoneSource } from './zone-snapshot.ts';

const FLAG_AA = 0x400;
const FLAG_RD = 0x100;
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
const QTYPE_ANY = 255;
const QTYPE_AXFR = 252;
const QTYPE_IXFR = 251;
const MAX_CNAME_CHAIN = 8;

export interface ResolveContext {
  zones: ZoneSource;
  /** Whether this client may transfer whole zones (AXFR); only asked over TCP and DoH. */
  mayTransfer: boolean;
}

type Section = Answer[];
export const rr = (owner: string, type: RecordType, ttl: number, rdata: string): Answer =>
  ({ name: owner, type: `UNKNOWN_${TYPE_NUMBERS[type]}`, class: 'IN', ttl, data: Buffer.from(rdataToWire(type, rdata)) }) as unknown as Answer;
const setToAnswers = (owner: string, set: RecordSet): Answer[] => set.rdatas.map((rdata) => rr(owner, set.type, set.ttl, rdata));

const absolute = (name: string, zone: string) => (name === '@' ? `${zone}` : `${name}.${zone}`);
function relative(qname: string, zone: string): string {
  return qname === zone ? '@' : qname.slice(0, -(zone.length + 1));
}
/** 'a.b' -> ['b'] ... up to but without the apex; nearest first. */
function ancestors(name: string): string[] {
  if (name === '@') return [];
  const out: string[] = [];
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) out.push(name.slice(dot + 1));
  return out;
}

function reply(query: Packet, rcode: number, authoritative: boolean, sections: { answers?: Section; authorities?: Section; additionals?: Section } = {}): Packet {
  const rd = (query.flags ?? 0) & FLAG_RD;
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
  return (TYPE_NUMBERS as Record<string, number>)[type] ?? META_TYPES[type] ?? -1;
}

/** The SOA of the zone for a negative answer, its TTL capped by the minimum (RFC 2308 §3). */
function negativeSoa(snapshot: ZoneSnapshot): Answer {
  const soa = snapshot.nodes.get('@')?.get('SOA') as RecordSet;
  const minimum = Number(soa.rdatas[0].split(' ')[6]);
  return rr(snapshot.zone, 'SOA', Math.min(soa.ttl, minimum), soa.rdatas[0]);
}

/** Glue and in-zone addresses of the names an answer points to (NS, MX, SRV targets). */
function addressesFor(snapshot: ZoneSnapshot, targets: string[]): Answer[] {
  const out: Answer[] = [];
  for (const target of targets) {
    const host = target.replace(/\.$/, '');
    if (host !== snapshot.zone && !host.endsWith(`.${snapshot.zone}`)) continue;
    const node = snapshot.nodes.get(relative(host, snapshot.zone));
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
  const qname = question.name.toLowerCase().replace(/\.$/, '');
  const qtype = qtypeNumber(question);
  const snapshot = await context.zones.find(qname);
  if (!snapshot) return [reply(query, RCODE.REFUSED, false)];

  if (qtype === QTYPE_AXFR || qtype === QTYPE_IXFR) {
    if (!context.mayTransfer || qname !== snapshot.zone) return [reply(query, RCODE.REFUSED, false)];
    return transfer(query, snapshot);
  }

  const answers: Answer[] = [];
  let name = qname;
  let zone = snapshot;
  for (let hop = 0; ; hop += 1) {
    const result = lookup(zone, relative(name, zone.zone), qtype, name);
    answers.push(...result.answers);
    if (result.kind === 'cname' && hop < MAX_CNAME_CHAIN) {
      const target = result.target.replace(/\.$/, '');
      // Only chains within this zone are followed; a resolver follows the rest itself.
      if (target === zone.zone || target.endsWith(`.${zone.zone}`)) {
        name = target;
        continue;
      }
      return [reply(query, RCODE.NOERROR, true, { answers })];
    }
    if (result.kind === 'cname') return [reply(query, RCODE.NOERROR, true, { answers })];
    if (result.kind === 'referral') return [reply(query, RCODE.NOERROR, answers.length > 0, { answers, authorities: result.authorities, additionals: result.additionals })];
    if (result.kind === 'nxdomain') return [reply(query, RCODE.NXDOMAIN, true, { answers, authorities: [negativeSoa(zone)] })];
    if (result.kind === 'nodata') return [reply(query, RCODE.NOERROR, true, { answers, authorities: [negativeSoa(zone)] })];
    return [reply(query, RCODE.NOERROR, true, { answers, additionals: result.additionals })];
  }
}

type Lookup =
  | { kind: 'answer'; answers: Answer[]; additionals: Answer[] }
  | { kind: 'cname'; answers: Answer[]; target: string }
  | { kind: 'referral'; answers: Answer[]; authorities: Answer[]; additionals: Answer[] }
  | { kind: 'nodata'; answers: Answer[] }
  | { kind: 'nxdomain'; answers: Answer[] };

function lookup(snapshot: ZoneSnapshot, rel: string, qtype: number, owner: string): Lookup {
  // A zone cut above the name (or at it, except for DS, which the parent answers) hands the query down.
  const cuts = [...ancestors(rel).reverse(), rel].filter((n) => n !== '@');
  for (const cut of cuts) {
    const ns = snapshot.nodes.get(cut)?.get('NS');
    if (!ns || (cut === rel && qtype === TYPE_NUMBERS.DS)) continue;
    const cutName = absolute(cut, snapshot.zone);
    return { kind: 'referral', answers: [], authorities: setToAnswers(cutName, ns), additionals: addressesFor(snapshot, ns.rdatas) };
  }
  let node = snapshot.nodes.get(rel);
  if (!node && !snapshot.interior.has(rel)) {
    // RFC 4592: the closest encloser's wildcard, if it has one, answers in the name's place.
    const encloser = ancestors(rel).find((n) => snapshot.nodes.has(n) || snapshot.interior.has(n)) ?? '@';
    node = snapshot.nodes.get(encloser === '@' ? '*' : `*.${encloser}`);
    if (!node) return { kind: 'nxdomain', answers: [] };
  }
  if (!node) return { kind: 'nodata', answers: [] };
  const cname = node.get('CNAME');
  if (cname && qtype !== TYPE_NUMBERS.CNAME && qtype !== QTYPE_ANY) {
    return { kind: 'cname', answers: setToAnswers(owner, cname), target: cname.rdatas[0] };
  }
  // RFC 8482: ANY is answered with one RRset, so it cannot be used to amplify.
  const sets = qtype === QTYPE_ANY ? [...node.values()].slice(0, 1) : [node.get(typeByNumber(qtype) as RecordType)].filter((s): s is RecordSet => s !== undefined);
  if (sets.length === 0) return { kind: 'nodata', answers: [] };
  const answers = sets.flatMap((set) => setToAnswers(owner, set));
  const targets = sets.flatMap((set) =>
    set.type === 'MX' ? set.rdatas.map((r) => r.split(' ')[1]) : set.type === 'SRV' ? set.rdatas.map((r) => r.split(' ')[3]) : set.type === 'NS' ? set.rdatas : [],
  );
  return { kind: 'answer', answers, additionals: addressesFor(snapshot, targets) };
}

/** AXFR (RFC 5936): the SOA, every record, the SOA again; in messages of at most 500 records. */
function transfer(query: Packet, snapshot: ZoneSnapshot): Packet[] {
  const soa = setToAnswers(snapshot.zone, snapshot.nodes.get('@')?.get('SOA') as RecordSet);
  const all: Answer[] = [];
  for (const [name, node] of snapshot.nodes) {
    for (const set of node.values()) if (!(name === '@' && set.type === 'SOA')) all.push(...setToAnswers(absolute(name, snapshot.zone), set));
  }
  const records = [...soa, ...all, ...soa];
  const messages: Packet[] = [];
  for (let i = 0; i < records.length; i += 500) messages.push(reply(query, RCODE.NOERROR, true, { answers: records.slice(i, i + 500) }));
  return messages;
}

export const SUPPORTED_TYPES: readonly RecordType[] = RECORD_TYPES;
export { RCODE };
