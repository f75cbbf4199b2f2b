import * as dnsPacket from 'dns-packet';

/** The rcodes an UPDATE is answered with (RFC 1035, RFC 2136 §2.2). */
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5, YXDOMAIN: 6, YXRRSET: 7, NXRRSET: 8, NOTAUTH: 9, NOTZONE: 10 } as const;
export type UpdateRcode = keyof typeof RCODE;

/** Extended DNS Errors (RFC 8914) a refusal names: 18 for what the key's scope does not allow, 0 for everything else. */
export const EDE = { OTHER: 0, PROHIBITED: 18 } as const;
const OPTION_EDE = 15;
const OPCODE_UPDATE = 5 << 11;
/** The refusal's words, cut so the signed answer fits a 512-byte UDP message (a client without EDNS takes no more). */
const EDE_TEXT_BYTES = 200;
const shortText = (text: string) => (Buffer.byteLength(text) <= EDE_TEXT_BYTES ? text : `${Buffer.from(text).subarray(0, EDE_TEXT_BYTES - 3).toString('utf8').replace(/\uFFFD$/, '')}…`);

export interface Refusal {
  code: (typeof EDE)[keyof typeof EDE];
  /** Names the record and the rule. */
  text: string;
}

/**
 * The answer to an UPDATE: its ID, opcode and rcode, the zone section echoed, and for a refusal an OPT record with the
 * Extended DNS Error. The error goes with every refusal, even to a client that sent no OPT (nsupdate sends none): the
 * contract asks the refusal to say why, and the clients read an OPT in an answer without harm.
 */
export function updateAnswer(id: number, zone: string | null, rcode: UpdateRcode, refusal?: Refusal): Buffer {
  const option = refusal ? [{ code: OPTION_EDE, data: Buffer.concat([Buffer.from([refusal.code >> 8, refusal.code & 0xff]), Buffer.from(shortText(refusal.text), 'utf8')]) }] : [];
  return dnsPacket.encode({
    id,
    type: 'response',
    flags: OPCODE_UPDATE | RCODE[rcode],
    questions: zone === null ? [] : [{ name: zone, type: 'SOA', class: 'IN' }],
    additionals: refusal ? [{ type: 'OPT', name: '.', udpPayloadSize: 1232, flags: 0, options: option } as never] : [],
  });
}
