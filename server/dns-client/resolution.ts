import { plainName } from '#core/dns/names.ts';
import type { RecordType } from '#core/wire/dns.ts';
import { parseServer, query } from './client.ts';
import { RCODE, rcodeName, storedAnswers, type StoredAnswer } from './reply.ts';

/*
 * How the service resolves a name when it looks past one zone (the mail check, an ALIAS's target, the name of a scan's
 * name server): the service's own zones first, then the resolvers of DNS_RESOLVER, following at most 8 CNAMEs. With
 * no DNS_RESOLVER a name outside the service's zones is not resolved at all. Nothing else is ever asked, so no name in
 * a zone can make the service send a packet to a private or loopback address it was not configured with.
 */

const MAX_CNAMES = 8;

/** What one server (or the service's own zones) answered for a name: its rcode and the answers in stored form. */
export interface Answered {
  rcode: number;
  answers: StoredAnswer[];
}

/** The service's own zones: the answer for a name, or null when no zone of the service holds it. */
export type OwnZones = (name: string, type: RecordType) => Promise<Answered | null>;

type Resolution =
  /** The records of the type at the end of the CNAME chain; `ttl` is the least of the chain's. */
  | { status: 'ok'; answers: StoredAnswer[]; ttl: number; from: Source }
  /** The name exists without records of this type. */
  | { status: 'nodata'; from: Source }
  | { status: 'nxdomain'; from: Source }
  /** It could not be answered: no resolver configured for a name outside the service's zones, a timeout, a SERVFAIL. */
  | { status: 'unresolved'; reason: string };

/** `zone`: every step was answered by the service's own zones; `resolver`: DNS_RESOLVER answered one. */
type Source = 'zone' | 'resolver';

export interface ResolutionSettings {
  ownZones: OwnZones;
  /** DNS_RESOLVER's entries, asked in order. */
  resolvers: readonly string[];
  /** Each query's wait, and how many times one resolver is asked before the next. */
  timeoutMs: number;
  tries: number;
}

export type ResolveName = (name: string, type: RecordType) => Promise<Resolution & { queries: number }>;

/** The one resolution policy: own zones first, then DNS_RESOLVER, 8 CNAMEs at most. Answers the queries it sent too. */
export function nameResolution(settings: ResolutionSettings): ResolveName {
  const servers = settings.resolvers.map(parseServer);

  /** Asks the resolvers in turn (each `tries` times on a timeout) until one answers NOERROR or NXDOMAIN. */
  async function fromResolvers(name: string, type: RecordType): Promise<{ answered: Answered | null; reason: string; queries: number }> {
    let reason = `${name} lies outside this service's zones and no DNS_RESOLVER is configured`;
    let queries = 0;
    for (const server of servers) {
      for (let attempt = 0; attempt < settings.tries; attempt += 1) {
        const asked = await query(server, name, type, { timeoutMs: settings.timeoutMs, edns: true });
        queries += asked.sent;
        if (asked.ok && (asked.reply.rcode === RCODE.NOERROR || asked.reply.rcode === RCODE.NXDOMAIN)) {
          return { answered: { rcode: asked.reply.rcode, answers: storedAnswers(asked.reply.answers) }, reason: '', queries };
        }
        reason = `${name} ${type}: ${asked.ok ? rcodeName(asked.reply.rcode) : asked.reason}`;
        // Only a timeout is worth asking the same resolver again; a refusal or a broken answer goes to the next.
        if (asked.ok || asked.failure !== 'timeout') break;
      }
    }
    return { answered: null, reason, queries };
  }

  return async function resolveName(name, type) {
    let current = plainName(name);
    let cnames = 0;
    let ttl = Infinity;
    let from: Source = 'zone';
    let queries = 0;
    for (;;) {
      let answered = await settings.ownZones(current, type);
      if (!answered) {
        const outside = await fromResolvers(current, type);
        queries += outside.queries;
        if (!outside.answered) return { status: 'unresolved', reason: outside.reason, queries };
        answered = outside.answered;
        from = 'resolver';
      }
      // Follow the CNAMEs the answer holds (a server answers the chain as far as it knows it).
      let end = current;
      for (;;) {
        const at = answered.answers.filter((a) => plainName(a.name) === end);
        const wanted = at.filter((a) => a.type === type);
        if (wanted.length > 0) return { status: 'ok', answers: wanted, ttl: Math.min(ttl, ...wanted.map((a) => a.ttl)), from, queries };
        const cname = at.find((a) => a.type === 'CNAME');
        if (!cname) break;
        if (cnames >= MAX_CNAMES) return { status: 'unresolved', reason: `more than ${MAX_CNAMES} CNAMEs in a row from ${plainName(name)}`, queries };
        cnames += 1;
        ttl = Math.min(ttl, cname.ttl);
        end = plainName(cname.rdata);
      }
      if (answered.rcode === RCODE.NXDOMAIN) return { status: 'nxdomain', from, queries };
      if (answered.rcode !== RCODE.NOERROR) return { status: 'unresolved', reason: `${current} ${type}: ${rcodeName(answered.rcode)}`, queries };
      if (end === current) return { status: 'nodata', from, queries };
      // The chain leaves what this server answered for: its target is asked again, own zones first.
      current = end;
    }
  };
}
