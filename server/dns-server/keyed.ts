import { crashPoint } from '../chain/crash-points.ts';
import { tsigFailure, tsigKeyName, verifyTsig, signAnswer, type TsigCheck, type TsigKey } from './tsig.ts';
import type { ZoneSource } from './zone-source.ts';

/**
 * What the name server asks of the standard doors (contract: The standard doors), which live outside it
 * (server/doors/update/): the TSIG forms of scoped API keys, DNS UPDATE, and whether a key may transfer a zone. The
 * server reads and signs the wire; the door decides and changes zones through the pipeline.
 */
export interface KeyedServing {
  /** The TSIG key of that name (lowercase, no final dot) among the live API keys' TSIG forms, or null. */
  findKey(name: string): Promise<TsigKey | null>;
  /** Answers an UPDATE message (opcode 5), its TSIG already checked: `key` null when unsigned. */
  update(message: Buffer, request: UpdateRequest): Promise<UpdateAnswer>;
  /** Whether an AXFR or IXFR of `zone` signed with an API key's form is answered to `sender` (the key's whole-zone scope and addresses). */
  mayTransfer(key: TsigKey, zone: string, sender: string | undefined): Promise<boolean>;
}

export interface UpdateRequest {
  key: TsigKey | null;
  /** The request's MAC: the same message twice is a replay. */
  mac: Buffer | null;
  sender: string | undefined;
  zones: ZoneSource;
}

export interface UpdateAnswer {
  /** The answer, unsigned (the server signs it). */
  message: Buffer;
  /** The zone and serial the change made: served here before the answer is sent. */
  served?: { zone: string; serial: number };
}

/** What the keyed doors need of who sent a message: the address (a key's limits) and what serves keyed requests (none: transfer keys only, UPDATE refused). */
export interface KeyedPeer {
  address?: string;
  keyed?: KeyedServing;
}

const OPCODE_UPDATE = 5;

/** Whether bytes are an UPDATE request (QR clear, opcode 5), read from the header alone. */
export const isUpdate = (bytes: Buffer) => bytes.length >= 12 && (bytes[2] & 0x80) === 0 && ((bytes[2] >> 3) & 0x0f) === OPCODE_UPDATE;

/** The TSIG check of a message with the key it names: a transfer key (DNS_TSIG_KEYS) or an API key's TSIG form. */
export async function checkTsig(bytes: Buffer, keys: readonly TsigKey[], keyed?: KeyedServing): Promise<TsigCheck> {
  const name = tsigKeyName(bytes);
  if (name === null) return verifyTsig(bytes, []);
  const key = keys.find((k) => k.name === name) ?? (await keyed?.findKey(name)) ?? null;
  return verifyTsig(bytes, key ? [key] : []);
}

/** A minimal answer to a message whose ID and flags are read from its header: the base of TSIG refusals. */
function headerAnswer(bytes: Buffer, rcode: number): Buffer {
  const out = Buffer.alloc(12);
  bytes.copy(out, 0, 0, 4);
  out[2] = (bytes[2] & 0x78) | 0x80;
  out[3] = rcode;
  return out;
}

const SERVFAIL = 2;
const REFUSED = 5;

/**
 * An UPDATE answered: TSIG first (unsigned → REFUSED; BADKEY, BADSIG, BADTIME → NOTAUTH with the TSIG error), then
 * the door; the answer signed with the request's key, sent once this instance serves the change.
 */
export async function answerUpdate(bytes: Buffer, zones: ZoneSource, keys: readonly TsigKey[], peer: KeyedPeer): Promise<Buffer[]> {
  try {
    return await signedUpdateAnswer(bytes, zones, keys, peer);
  } catch (error) {
    // The key could not be looked up (the database away): SERVFAIL, and the server keeps answering.
    console.error('DNS UPDATE: the request could not be answered', error);
    return [headerAnswer(bytes, SERVFAIL)];
  }
}

async function signedUpdateAnswer(bytes: Buffer, zones: ZoneSource, keys: readonly TsigKey[], peer: KeyedPeer): Promise<Buffer[]> {
  const signed = await checkTsig(bytes, keys, peer.keyed);
  if (signed.kind === 'error') return [tsigFailure(headerAnswer(bytes, 0), signed)];
  if (!peer.keyed) return [headerAnswer(bytes, REFUSED)];
  const key = signed.kind === 'ok' ? signed.key : null;
  const answer = await peer.keyed.update(bytes, { key, mac: signed.kind === 'ok' ? signed.mac : null, sender: peer.address, zones });
  if (answer.served) {
    await servedHere(zones, answer.served.zone, answer.served.serial);
    // The kill -9 suite's point: once this NOERROR is on its way (the send follows in this turn's microtasks).
    setImmediate(() => crashPoint('dns-update-answered'));
  }
  return signed.kind === 'ok' ? signAnswer([answer.message], signed.key, signed.mac) : [answer.message];
}

/** How long an answer waits for this instance to serve the change it made (the change's announcement is a NOTIFY away). */
const SERVE_WAIT_MS = 2000;

/**
 * Serves the change this instance just committed: the zone's snapshot and cached answers dropped now (the database's
 * announcement, on its way, would do so a moment later), then waits until the zone answers at `serial` or later (a
 * big zone answers its previous version while the next loads), or the wait runs out.
 */
async function servedHere(zones: ZoneSource, zone: string, serial: number): Promise<boolean> {
  zones.changed(zone);
  const deadline = Date.now() + SERVE_WAIT_MS;
  for (;;) {
    let stop = () => {};
    const changed = new Promise<void>((done) => {
      const timer = setTimeout(done, Math.max(1, Math.min(50, deadline - Date.now())));
      const off = zones.onChange((z) => (z === zone || z === null) && done());
      stop = () => {
        clearTimeout(timer);
        off();
      };
    });
    const snapshot = await zones.find(zone).catch(() => null);
    if ((snapshot && snapshot.serial >= serial) || Date.now() >= deadline) {
      stop();
      return snapshot !== null && snapshot.serial >= serial;
    }
    await changed;
    stop();
  }
}
