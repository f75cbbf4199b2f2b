/*
 * A UDP thread's answer from the shared table (udp-thread.cjs), per packet: the look-up as the main thread keys it
 * (server.ts cacheKeyOf), the kept answer copied into the reply buffer, and the client's cookie written straight
 * after it. Its own file so that scripts/bench-udp-answer.ts times this very code in-process.
 *
 * A query with a cookie is looked up without it. Resolvers put the cookie option last, so the key is the query cut
 * before it, with the header's Z bit set and the OPT's RDATA length shortened: those three bytes are patched in the
 * query itself for the look-up and put back after (no copy of the query); a cookie followed by other options is
 * copied out without it (cookies.cjs withoutCookie).
 */
'use strict';
const { find: findEntry, markAsked, unchanged } = require('./answer-table.cjs');
const { MALFORMED, NONE, OPTION_SIZE, answerCookie, cookieSlot, findCookie, optOf, withoutCookie } = require('./cookies.cjs');
const { answerFromZone } = require('./thread-zone.cjs');

/** The packet cache's rule (packet-cache.ts `cacheable`) for the first `n` bytes of `q`: opcode QUERY, one question, at most an OPT record, no TSIG. */
function cacheable(q, n) {
  if (n < 17 || n > 512) return false;
  if ((q[2] & 0x80) !== 0 || (q[2] & 0x78) !== 0) return false;
  if (q[4] !== 0 || q[5] !== 1 || q[6] !== 0 || q[7] !== 0 || q[8] !== 0 || q[9] !== 0 || q[10] !== 0 || q[11] > 1) return false;
  if (q[11] === 0) return true;
  let offset = 12;
  while (offset < n && q[offset] !== 0) offset += q[offset] + 1;
  offset += 5;
  if (offset + 3 > n) return false;
  return q[offset] === 0 && q[offset + 1] === 0 && q[offset + 2] === 41;
}

const keyScratch = Buffer.alloc(512);
/** A cookie answered where the reply has no room for it (its verdict still counts for RRL). */
const cookieScratch = Buffer.alloc(24);

/** A reader of the table (answer-table.cjs openTable) under a thread's cookie secrets (null: no cookies). */
function answerReader(table, secrets) {
  return { table, secrets, /** The last query's cookie option offset (-1: none). */ cookieAt: -1 };
}

/**
 * Whether the table holds an answer to the first `n` bytes of `q`, looked up without its cookie option, whose
 * offset is left in r.cookieAt. False for a miss, a query the cache does not keep, and a malformed cookie (the main
 * thread answers FORMERR). Found, its parts are in r.table.
 */
function find(r, q, n) {
  r.cookieAt = -1;
  if (!cacheable(q, n)) return false;
  const table = r.table;
  if (r.secrets === null) return findEntry(table, q, n);
  const opt = optOf(q, n);
  if (opt < 0) return findEntry(table, q, n);
  const rdata = (q[opt + 9] << 8) | q[opt + 10];
  const option = findCookie(q, opt + 11, rdata, n);
  if (option === MALFORMED) return false;
  if (option === NONE) return findEntry(table, q, n);
  r.cookieAt = option;
  const skip = 4 + ((q[option + 2] << 8) | q[option + 3]);
  if (option + skip !== n) return findEntry(table, keyScratch, withoutCookie(q, n, opt, option, keyScratch));
  const flags = q[3];
  const shorter = rdata - skip;
  q[3] = flags | 0x40;
  q[opt + 9] = shorter >>> 8;
  q[opt + 10] = shorter & 255;
  const found = findEntry(table, q, option);
  q[3] = flags;
  q[opt + 9] = rdata >>> 8;
  q[opt + 10] = rdata & 255;
  return found;
}

/**
 * The found answer to `q` written into `out`: its ID, then the client's cookie (answered for address `ip` at `now`,
 * in seconds) when the query had one. Its length, or -1 when it does not fit or the writer took the entry while it
 * was copied (a miss, answered by the main thread). r.proven says whether the client's server cookie was valid.
 */
function answerInto(r, q, ip, now, out) {
  const table = r.table;
  const length = table.udpLength;
  const cookieAt = r.cookieAt;
  r.proven = false;
  if (length + (cookieAt >= 0 ? OPTION_SIZE : 0) > out.length) return -1;
  table.bytes.copy(out, 0, table.udpAt, table.udpAt + length);
  if (!unchanged(table)) return -1;
  markAsked(table);
  out[0] = q[0];
  out[1] = q[1];
  return withCookie(r, q, cookieAt, ip, now, out, length);
}

/** The answer of `length` bytes in `out` with the client's cookie appended when the query had one (see answerInto). */
function withCookie(r, q, cookieAt, ip, now, out, length) {
  if (cookieAt < 0) return length;
  const slot = cookieSlot(out, length);
  if (slot < 0) {
    r.proven = answerCookie(r.secrets, q, cookieAt, ip, now, cookieScratch, 0);
    return length;
  }
  r.proven = answerCookie(r.secrets, q, cookieAt, ip, now, out, slot);
  return slot + OPTION_SIZE - 4;
}

/**
 * After `find` missed: the answer to `q` written from its zone's form compiled for the threads (thread-zone.cjs,
 * reader `z`), then the client's cookie as for a kept answer. Its length, or -1 (a miss for the main thread).
 */
function zoneAnswerInto(r, z, q, n, ip, now, out) {
  r.proven = false;
  if (!cacheable(q, n)) return -1;
  // The main thread fits an answer to a query with a cookie (or the Z bit) leaving room for the cookie (server.ts fitUdp).
  const room = r.cookieAt >= 0 || (q[3] & 0x40) !== 0 ? OPTION_SIZE : 0;
  const length = answerFromZone(z, q, n, out, r.secrets !== null, room);
  if (length < 0) return -1;
  return withCookie(r, q, r.cookieAt, ip, now, out, length);
}

module.exports = { answerReader, find, answerInto, zoneAnswerInto };
