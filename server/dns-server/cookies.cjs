/*
 * DNS cookies (RFC 7873) with the interoperable server cookie of RFC 9018: a client sends 8 bytes of its own; the
 * server answers them with 16 bytes — version 1, 3 reserved bytes, a 32-bit timestamp and SipHash-2-4 of the client
 * cookie, those 8 bytes and the client's address — under a secret every instance and every UDP thread derives from
 * one master secret kept in the database. A client that sends back a server cookie this server made proves it saw
 * an earlier answer at that address: it is no spoofed source, so RRL lets it through.
 *
 * Rotation without a message between instances: the secret of a period (PERIOD_SECONDS) is HMAC-SHA256(master,
 * period), and a cookie is checked with the secret of the period of its own timestamp. A cookie is good for an hour
 * (RFC 9018 §4.3), so one made just before a rotation is still taken after it (the previous period's secret), by
 * every instance alike, without any of them storing more than the master. Plain JavaScript: the UDP threads
 * (udp-thread.cjs) load it without a TypeScript loader, and the main thread through createRequire.
 */
'use strict';
const { createHmac } = require('node:crypto');
// SipHash-2-4 in WebAssembly (a pure JS fallback where there is none): 0.8 µs a hash here, against 6 µs for npm siphash.
const siphash24 = require('siphash24');

const COOKIE = 10;
const CLIENT = 8;
const SERVER = 16;
/** The whole option as this server answers it: code, length, client cookie, server cookie. */
const OPTION_SIZE = 4 + CLIENT + SERVER;
const PERIOD_SECONDS = 6 * 3600;
/** RFC 9018 §4.3: a cookie is taken for an hour, with five minutes of clock skew ahead; renewed after half an hour. */
const MAX_AGE = 3600;
const MAX_AHEAD = 300;
const RENEW_AGE = 1800;
/** What findCookie answers when there is no cookie option, or one of a length RFC 7873 §5.2.2 calls malformed. */
const NONE = -1;
const MALFORMED = -2;

/** Secrets by period, derived from `master` (bytes) as asked; a few kept. */
function cookieSecrets(master) {
  const keys = new Map();
  return {
    keyFor(period) {
      let key = keys.get(period);
      if (key === undefined) {
        const bytes = createHmac('sha256', master).update(`dns-cookie ${period}`).digest();
        key = Buffer.from(bytes.subarray(0, 16));
        if (keys.size >= 4) keys.delete(keys.keys().next().value);
        keys.set(period, key);
      }
      return key;
    },
  };
}

/** The hash's input for an IPv4 and an IPv6 client (client cookie, version, reserved, timestamp, address), reused. */
const inputs = { 4: Buffer.alloc(CLIENT + 8 + 4), 16: Buffer.alloc(CLIENT + 8 + 16) };
const hashed = Buffer.alloc(8);

/** Copies `length` bytes: a loop, which costs less than Buffer#copy's native call on so few bytes. */
function copyBytes(from, fromAt, to, toAt, length) {
  for (let i = 0; i < length; i += 1) to[toAt + i] = from[fromAt + i];
}

/**
 * Writes the 8-byte hash of RFC 9018 §4.4 into `out` at `at`: SipHash-2-4 over the client cookie, the server
 * cookie's first 8 bytes (version, reserved, timestamp) and the client address (4 or 16 bytes), under `key`.
 */
function hashInto(key, client, clientAt, head, headAt, ip, out, at) {
  const input = inputs[ip.length];
  copyBytes(client, clientAt, input, 0, CLIENT);
  copyBytes(head, headAt, input, CLIENT, 8);
  copyBytes(ip, 0, input, CLIENT + 8, ip.length);
  siphash24(input, key, hashed, true);
  copyBytes(hashed, 0, out, at, 8);
}

/** A new server cookie for `client` (the 8 bytes at `clientAt`) at `ip`, made at `now` (seconds), into `out` at `at`. */
function mintInto(secrets, client, clientAt, ip, now, out, at) {
  out[at] = 1;
  out[at + 1] = 0;
  out[at + 2] = 0;
  out[at + 3] = 0;
  const stamp = now >>> 0;
  out[at + 4] = stamp >>> 24;
  out[at + 5] = (stamp >>> 16) & 255;
  out[at + 6] = (stamp >>> 8) & 255;
  out[at + 7] = stamp & 255;
  hashInto(secrets.keyFor(Math.floor(now / PERIOD_SECONDS)), client, clientAt, out, at, ip, out, at + 8);
}

const expected = Buffer.alloc(8);

/** Seconds since the cookie's timestamp, across the 32-bit wrap (negative: ahead of this clock). */
function ageOf(stamp, now) {
  return ((now - stamp) | 0);
}

/**
 * Whether the server cookie of `length` bytes at `at` in `m` (after the client cookie at `clientAt`) is one this
 * service made for this client and address, within its hour: 'fresh', 'worn' (older than half an hour, to renew)
 * or false.
 */
function checkServerCookie(secrets, m, clientAt, at, length, ip, now) {
  if (length !== SERVER || m[at] !== 1) return false;
  const stamp = m.readUInt32BE(at + 4);
  const age = ageOf(stamp, now >>> 0);
  if (age > MAX_AGE || age < -MAX_AHEAD) return false;
  hashInto(secrets.keyFor(Math.floor((now - age) / PERIOD_SECONDS)), m, clientAt, m, at, ip, expected, 0);
  if (m.compare(expected, 0, 8, at + 8, at + 16) !== 0) return false;
  return age > RENEW_AGE ? 'worn' : 'fresh';
}

/**
 * The COOKIE option in the OPT record whose RDATA is `rdata` bytes at `at` in `m`: the offset of its code, NONE or
 * MALFORMED (a client cookie alone is 8 bytes; with a server cookie, 16 to 40). Only the first is read (RFC 7873
 * §5.2). Options running past the RDATA, or the RDATA past the first `n` bytes, are MALFORMED too.
 */
function findCookie(m, at, rdata, n = m.length) {
  const end = at + rdata;
  if (end > n) return MALFORMED;
  for (let o = at; o < end; ) {
    if (o + 4 > end) return MALFORMED;
    // Byte reads: readUInt16BE's checks cost more than the rest of this loop, per answer.
    const code = (m[o] << 8) | m[o + 1];
    const length = (m[o + 2] << 8) | m[o + 3];
    if (o + 4 + length > end) return MALFORMED;
    if (code === COOKIE) return length === CLIENT || (length >= 16 && length <= 40) ? o : MALFORMED;
    o += 4 + length;
  }
  return NONE;
}

/**
 * The 24-byte answer to the cookie option at `option` in `m`, written into `out` at `at` (the client cookie, then
 * the server's: the one the client sent back while it is fresh, else a new one). Answers whether the client's server
 * cookie was valid (then RRL lets its answer through).
 */
function answerCookie(secrets, m, option, ip, now, out, at) {
  const length = (m[option + 2] << 8) | m[option + 3];
  // The same cookie from the same address in the same second has the same answer: a client's burst costs one hash.
  const clientAt = option + 4;
  if (memo.now === now && memo.secrets === secrets && memo.length === length && ip.length === memo.ipLength && sameBytes(m, clientAt, memo.option, length) && sameBytes(ip, 0, memo.ip, ip.length)) {
    const answer = memo.answer;
    for (let i = 0; i < CLIENT + SERVER; i += 1) out[at + i] = answer[i];
    return memo.valid;
  }
  const verdict = length > CLIENT ? checkServerCookie(secrets, m, clientAt, clientAt + CLIENT, length - CLIENT, ip, now) : false;
  copyBytes(m, clientAt, out, at, CLIENT);
  if (verdict === 'fresh') copyBytes(m, clientAt + CLIENT, out, at + CLIENT, SERVER);
  else mintInto(secrets, m, clientAt, ip, now, out, at + CLIENT);
  memo.secrets = secrets;
  memo.now = now;
  memo.length = length;
  copyBytes(m, clientAt, memo.option, 0, length);
  copyBytes(ip, 0, memo.ip, 0, ip.length);
  memo.ipLength = ip.length;
  copyBytes(out, at, memo.answer, 0, CLIENT + SERVER);
  memo.valid = verdict !== false;
  return memo.valid;
}

/** The last cookie answered (per thread): its secrets, second, option data, address, answer and verdict. */
const memo = { secrets: null, now: -1, length: 0, option: Buffer.alloc(40), ip: Buffer.alloc(16), ipLength: 0, answer: Buffer.alloc(CLIENT + SERVER), valid: false };

/** Whether `length` bytes of `a` from `at` are those of `b` from 0 (a loop: Buffer#compare costs more on a few bytes). */
function sameBytes(a, at, b, length) {
  for (let i = 0; i < length; i += 1) if (a[at + i] !== b[i]) return false;
  return true;
}

/** The offset of the OPT record of the first `length` bytes of message `m` when it is the last record, else -1. */
function lastOpt(m, length) {
  // This server's answers end with an OPT of no options (11 bytes) unless the query asked for one it answers.
  const short = length - 11;
  if (short >= 12 && m[short] === 0 && m[short + 1] === 0 && m[short + 2] === 41 && m[short + 9] === 0 && m[short + 10] === 0) return short;
  const skipName = (o) => {
    while (o < length) {
      const b = m[o];
      if (b === 0) return o + 1;
      if ((b & 0xc0) === 0xc0) return o + 2;
      o += b + 1;
    }
    return -1;
  };
  let o = 12;
  for (let q = m.readUInt16BE(4); q > 0 && o > 0; q -= 1) o = skipName(o) + 4;
  let last = -1;
  for (let r = m.readUInt16BE(6) + m.readUInt16BE(8) + m.readUInt16BE(10); r > 0; r -= 1) {
    last = o;
    o = skipName(o);
    if (o < 0 || o + 10 > length) return -1;
    o += 10 + m.readUInt16BE(o + 8);
  }
  return last >= 0 && o === length && m[last] === 0 && m.readUInt16BE(last + 1) === 41 ? last : -1;
}

/**
 * Opens a cookie option at the end of the answer of `length` bytes in `out` whose last record is its OPT (as this
 * server writes its answers): the option's code and length written, the OPT's RDATA length grown, and the offset
 * where its 24 bytes go answered (the caller writes them there: the answer is then OPTION_SIZE bytes longer); -1,
 * with `out` untouched, when the answer does not end so (then it goes without). `out` must have the room.
 */
function cookieSlot(out, length) {
  const opt = lastOpt(out, length);
  if (opt < 0) return -1;
  const rdata = ((out[opt + 9] << 8) | out[opt + 10]) + OPTION_SIZE;
  out[opt + 9] = rdata >>> 8;
  out[opt + 10] = rdata & 255;
  out[length] = 0;
  out[length + 1] = COOKIE;
  out[length + 2] = 0;
  out[length + 3] = CLIENT + SERVER;
  return length + 4;
}

/**
 * Appends a cookie option of `cookie` (24 bytes at `cookieAt`) to the answer of `length` bytes in `out` (see
 * cookieSlot): its new length, or `length` unchanged when the answer does not end with its OPT.
 */
function appendCookie(out, length, cookie, cookieAt) {
  const slot = cookieSlot(out, length);
  if (slot < 0) return length;
  copyBytes(cookie, cookieAt, out, slot, CLIENT + SERVER);
  return length + OPTION_SIZE;
}

/**
 * For a query of one question whose only additional record is its OPT (the packet cache's shape): the OPT's
 * offset in `q` (first `n` bytes), or -1.
 */
function optOf(q, n) {
  if (n < 12 || q[10] !== 0 || q[11] !== 1 || q[4] !== 0 || q[5] !== 1) return -1;
  let offset = 12;
  while (offset < n && q[offset] !== 0) {
    if ((q[offset] & 0xc0) !== 0) return -1;
    offset += q[offset] + 1;
  }
  offset += 5;
  if (offset + 11 > n || q[offset] !== 0 || q.readUInt16BE(offset + 1) !== 41) return -1;
  return offset;
}

/**
 * The query without its cookie option, written into `out` (its length): what the packet cache keys and resolves,
 * marked with the header's Z bit (which no answer depends on) so that its answer is fitted with room for the cookie.
 */
function withoutCookie(q, n, opt, option, out) {
  const skip = 4 + q.readUInt16BE(option + 2);
  copyBytes(q, 0, out, 0, option);
  copyBytes(q, option + skip, out, option, n - option - skip);
  out[3] |= 0x40;
  out.writeUInt16BE(q.readUInt16BE(opt + 9) - skip, opt + 9);
  return n - skip;
}

/** A client address as RFC 9018 hashes it: 4 bytes for IPv4 (an IPv4-mapped IPv6 address included), else 16. */
function addressBytes(address) {
  const mapped = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!mapped.includes(':')) return Buffer.from(mapped.split('.').map(Number));
  const [head, tail = ''] = mapped.split('::');
  const left = head ? head.split(':') : [];
  const right = mapped.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  const out = Buffer.alloc(16);
  groups.slice(0, 8).forEach((g, i) => out.writeUInt16BE(parseInt(g || '0', 16) & 0xffff, i * 2));
  return out;
}

const ip4 = Buffer.alloc(4);
const ip16 = Buffer.alloc(16);

/** The client address of a sockaddr (as recvmmsg wrote it), 4 or 16 bytes, in a buffer reused by the next call. */
function sockaddrBytes(addr) {
  if (addr[0] + (addr[1] << 8) !== 10) return copyInto(addr, 4, ip4);
  let mapped = addr[18] === 0xff && addr[19] === 0xff;
  for (let i = 8; mapped && i < 18; i += 1) mapped = addr[i] === 0;
  return mapped ? copyInto(addr, 20, ip4) : copyInto(addr, 8, ip16);
}

function copyInto(from, at, to) {
  copyBytes(from, at, to, 0, to.length);
  return to;
}

module.exports = {
  COOKIE,
  OPTION_SIZE,
  PERIOD_SECONDS,
  NONE,
  MALFORMED,
  cookieSecrets,
  mintInto,
  checkServerCookie,
  findCookie,
  answerCookie,
  appendCookie,
  cookieSlot,
  optOf,
  withoutCookie,
  addressBytes,
  sockaddrBytes,
};
