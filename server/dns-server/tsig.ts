import { createHmac, timingSafeEqual } from 'node:crypto';
import { plainName } from '#core/dns/names.ts';
import { nameWire, readName } from './wire-names.ts';

/**
 * TSIG (RFC 8945) with HMAC-SHA256, on wire-format messages: no npm library keeps it maintained, and dns-packet knows
 * the TSIG type number but not its record, so the record is read and written here. A request's MAC covers the
 * message without its TSIG record (original ID, ARCOUNT one less) and the TSIG variables; an answer's MAC covers the
 * request's MAC first; each later message of a transfer covers the previous message's MAC and the timers only.
 */
export interface TsigKey {
  /** Lowercase, without the final dot. */
  name: string;
  secret: Buffer;
  /** The API key whose TSIG form this is (contract: The standard doors); absent for DNS_TSIG_KEYS' transfer keys. */
  apiKeyId?: string;
}

const ALGORITHM = 'hmac-sha256';
const TYPE_TSIG = 250;
const CLASS_ANY = 255;
const FUDGE = 300;
const TSIG_ERROR = { BADSIG: 16, BADKEY: 17, BADTIME: 18 } as const;

/** `name:hmac-sha256:<base64>` entries of DNS_TSIG_KEYS. */
export function parseTsigKeys(entries: string[]): TsigKey[] {
  return entries.map((entry) => {
    const [name, , secret] = entry.split(':');
    return { name: plainName(name), secret: Buffer.from(secret, 'base64') };
  });
}

/**
 * The name of the key a message is signed with (its last record is TSIG), or null: unsigned, or not readable as DNS.
 * Read before the key is looked up, so a key kept elsewhere (an API key's TSIG form) is fetched only when named.
 */
export function tsigKeyName(message: Buffer): string | null {
  try {
    const offset = tsigOffset(message);
    return offset === null ? null : readName(message, offset).name;
  } catch {
    return null;
  }
}

/** Where the last record of the message starts, when it is a TSIG record. */
function tsigOffset(message: Buffer): number | null {
  if (message.length < 12 || message.readUInt16BE(10) === 0) return null;
  let at = 12;
  for (let q = message.readUInt16BE(4); q > 0; q -= 1) at = readName(message, at).end + 4;
  const records = message.readUInt16BE(6) + message.readUInt16BE(8) + message.readUInt16BE(10);
  let last = -1;
  for (let r = 0; r < records; r += 1) {
    last = at;
    const { end } = readName(message, at);
    at = end + 10 + message.readUInt16BE(end + 8);
  }
  if (at !== message.length) throw new Error('bad length');
  const { end } = readName(message, last);
  return message.readUInt16BE(end) === TYPE_TSIG ? last : null;
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const time48 = (seconds: number) => {
  const b = Buffer.alloc(6);
  b.writeUIntBE(seconds, 0, 6);
  return b;
};
const hmac = (key: TsigKey, ...parts: Buffer[]) => {
  const h = createHmac('sha256', key.secret);
  for (const p of parts) h.update(p);
  return h.digest();
};
const variables = (key: TsigKey, time: number, error: number, other: Buffer = Buffer.alloc(0)) =>
  Buffer.concat([nameWire(key.name), u16(CLASS_ANY), Buffer.alloc(4), nameWire(ALGORITHM), time48(time), u16(FUDGE), u16(error), u16(other.length), other]);

export type TsigCheck =
  | { kind: 'none' }
  | { kind: 'ok'; key: TsigKey; mac: Buffer; time: number }
  /** BADTIME comes with the key and the request's MAC: its answer is signed (RFC 8945 §5.2.3); BADKEY and BADSIG's are not. */
  | { kind: 'error'; error: number; keyName: string; time: number; key?: TsigKey; mac?: Buffer };

/** Checks the TSIG record of a request, if it carries one; of an answer when given the request's MAC. */
export function verifyTsig(message: Buffer, keys: TsigKey[], nowSeconds = Math.floor(Date.now() / 1000), requestMac?: Buffer): TsigCheck {
  let offset: number | null;
  try {
    offset = tsigOffset(message);
  } catch {
    return { kind: 'none' };
  }
  if (offset === null) return { kind: 'none' };
  try {
    const owner = readName(message, offset);
    const rdata = owner.end + 10;
    const algorithm = readName(message, rdata);
    let at = algorithm.end;
    const time = message.readUIntBE(at, 6);
    const fudge = message.readUInt16BE(at + 6);
    const macSize = message.readUInt16BE(at + 8);
    const mac = message.subarray(at + 10, at + 10 + macSize);
    at += 10 + macSize;
    const originalId = message.readUInt16BE(at);
    const error = message.readUInt16BE(at + 2);
    const other = message.subarray(at + 4, at + 6 + message.readUInt16BE(at + 4));
    const key = keys.find((k) => k.name === owner.name);
    if (!key || algorithm.name !== ALGORITHM) return { kind: 'error', error: TSIG_ERROR.BADKEY, keyName: owner.name, time };
    const unsigned = Buffer.from(message.subarray(0, offset));
    unsigned.writeUInt16BE(originalId, 0);
    unsigned.writeUInt16BE(message.readUInt16BE(10) - 1, 10);
    // The class and TTL as received (ANY and 0 when sent right): the MAC covers them.
    const classAndTtl = message.subarray(owner.end + 2, owner.end + 8);
    const vars = Buffer.concat([nameWire(owner.name), classAndTtl, nameWire(ALGORITHM), time48(time), u16(fudge), u16(error), other]);
    const expected = requestMac ? hmac(key, u16(requestMac.length), requestMac, unsigned, vars) : hmac(key, unsigned, vars);
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) return { kind: 'error', error: TSIG_ERROR.BADSIG, keyName: owner.name, time };
    if (Math.abs(nowSeconds - time) > fudge) return { kind: 'error', error: TSIG_ERROR.BADTIME, keyName: owner.name, time, key, mac: Buffer.from(mac) };
    return { kind: 'ok', key, mac: Buffer.from(mac), time };
  } catch {
    return { kind: 'error', error: TSIG_ERROR.BADSIG, keyName: '', time: nowSeconds };
  }
}

function appendTsig(message: Buffer, keyName: string, time: number, mac: Buffer, error: number, other: Buffer = Buffer.alloc(0)): Buffer {
  const rdata = Buffer.concat([nameWire(ALGORITHM), time48(time), u16(FUDGE), u16(mac.length), mac, message.subarray(0, 2), u16(error), u16(other.length), other]);
  const record = Buffer.concat([nameWire(keyName), u16(TYPE_TSIG), u16(CLASS_ANY), Buffer.alloc(4), u16(rdata.length), rdata]);
  const out = Buffer.concat([message, record]);
  out.writeUInt16BE(message.readUInt16BE(10) + 1, 10);
  return out;
}

/** Signs a request (a NOTIFY): answers the signed message and its MAC, which the answer's MAC covers. */
export function signRequest(message: Buffer, key: TsigKey, time = Math.floor(Date.now() / 1000)): { message: Buffer; mac: Buffer } {
  const mac = hmac(key, message, variables(key, time, 0));
  return { message: appendTsig(message, key.name, time, mac, 0), mac };
}

/**
 * Signs the messages of one answer in order: the first covers the request's MAC and the full variables, each later
 * one the previous message's MAC and the timers (RFC 8945 §5.3.1).
 */
export function signAnswer(messages: Buffer[], key: TsigKey, requestMac: Buffer, time = Math.floor(Date.now() / 1000)): Buffer[] {
  let prior = requestMac;
  return messages.map((message, i) => {
    const tail = i === 0 ? variables(key, time, 0) : Buffer.concat([time48(time), u16(FUDGE)]);
    const mac = hmac(key, u16(prior.length), prior, message, tail);
    prior = mac;
    return appendTsig(message, key.name, time, mac, 0);
  });
}

/**
 * A refusal for a request whose TSIG failed: NOTAUTH with a TSIG record naming the error. BADKEY and BADSIG carry no
 * MAC; BADTIME is signed with the key, over the request's MAC, and carries the client's time in Time Signed and the
 * server's in Other Data, so the client can see the skew (RFC 8945 §5.2.3).
 */
export function tsigFailure(answer: Buffer, check: Extract<TsigCheck, { kind: 'error' }>, nowSeconds = Math.floor(Date.now() / 1000)): Buffer {
  const out = Buffer.from(answer);
  out[3] = (out[3] & 0xf0) | 9;
  const { key, mac: requestMac, error, time } = check;
  if (error !== TSIG_ERROR.BADTIME || !key || !requestMac) return appendTsig(out, check.keyName || 'unknown', time, Buffer.alloc(0), error);
  const serverTime = time48(nowSeconds);
  const mac = hmac(key, u16(requestMac.length), requestMac, out, variables(key, time, error, serverTime));
  return appendTsig(out, key.name, time, mac, error, serverTime);
}
