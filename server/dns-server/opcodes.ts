/**
 * What answers each DNS opcode (RFC 1035 §4.1.1, RFC 6895 §2.2): QUERY resolves (or transfers) from the zones;
 * every other opcode, NOTIFY (RFC 1996) among them until it has a handler here, is answered NOTIMP, never silence.
 * UPDATE (RFC 2136) never reaches this table: server.ts hands it to the doors (keyed.ts) from its header alone,
 * before dns-packet reads it (an UPDATE's records may carry no data, which dns-packet cannot read). The answer echoes the query's opcode (server.ts), or a client discards it.
 */
import type { Packet } from 'dns-packet';
import { incrementalTransfer, type SecondaryServing } from './secondaries.ts';
import { resolve, RCODE } from './resolve.ts';
import type { ZoneSource } from './zone-source.ts';
import type { verifyTsig } from './tsig.ts';

const OPCODE = { QUERY: 0, NOTIFY: 4 } as const;

/** One request as a handler sees it: the decoded query and what the transport and TSIG found out about it. */
interface DnsRequest {
  query: Packet;
  /** The message as received (TSIG covers these bytes). */
  bytes: Buffer;
  zones: ZoneSource;
  /** Whether this client may transfer zones (an allowed address over TCP, signed when keys are set). */
  mayTransfer: boolean;
  dnssecOk: boolean;
  /** The TSIG verdict: 'ok' names the key the request was signed with. */
  tsig: ReturnType<typeof verifyTsig> | { kind: 'none' };
  secondaries?: SecondaryServing;
  onZone?: (zone: string) => void;
}

export type OpcodeHandler = (request: DnsRequest) => Promise<Packet[]>;

/** NOTIMP, the question echoed, no other flag (as BIND answers; the server.ts caller echoes the opcode). */
const notImplemented: OpcodeHandler = async ({ query }) => [
  { id: query.id ?? 0, type: 'response', flags: RCODE.NOTIMP, questions: query.questions ?? [], answers: [], authorities: [], additionals: [] },
];

/** A standard query: IXFR from the history for a secondary that may transfer, else resolved (AXFR included). */
const standardQuery: OpcodeHandler = async ({ query, zones, mayTransfer, dnssecOk, secondaries, onZone }) =>
  (secondaries && mayTransfer && (await incrementalTransfer(query, zones, secondaries))) || (await resolve(query, { zones, mayTransfer, dnssecOk, onZone }));

const HANDLERS: ReadonlyMap<number, OpcodeHandler> = new Map<number, OpcodeHandler>([
  [OPCODE.QUERY, standardQuery],
  [OPCODE.NOTIFY, notImplemented],
]);

/** The handler of `opcode`: NOTIMP for any this server does not implement. */
export function handlerFor(opcode: number): OpcodeHandler {
  return HANDLERS.get(opcode) ?? notImplemented;
}
