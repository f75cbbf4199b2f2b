/*
 * Response-rate limiting of the UDP threads (udp-thread.cjs) and of the main thread when it answers a thread's miss
 * (udp-threads.ts): responseRateLimiter (rrl.ts) over one table every thread shares (a SharedArrayBuffer), so its
 * limits hold per client across threads. Plain JavaScript so a worker loads it without a TypeScript loader.
 */
'use strict';

const RRL_SLOTS = 1 << 16;
const RRL_MASK = RRL_SLOTS - 1;
const RRL_PROBES = 8;
const AF_INET6 = 10;

function hashOf(bytes, start, end) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i += 1) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h | 0;
}

const scratch = Buffer.alloc(8);

/** The client network as RRL counts it (server/net/addresses.ts clientNetwork): IPv4 /24, IPv6 /56, hashed; from a sockaddr's bytes. */
function networkOfSockaddr(addr) {
  if (addr[0] + (addr[1] << 8) !== AF_INET6) return networkOf4(addr[4], addr[5], addr[6]);
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 network
  let mapped = addr[18] === 0xff && addr[19] === 0xff;
  for (let i = 8; mapped && i < 18; i += 1) mapped = addr[i] === 0;
  if (mapped) return networkOf4(addr[20], addr[21], addr[22]);
  for (let i = 0; i < 7; i += 1) scratch[i] = addr[8 + i];
  scratch[7] = 6;
  return hashOf(scratch, 0, 8);
}

function networkOf4(a, b, c) {
  scratch[0] = a;
  scratch[1] = b;
  scratch[2] = c;
  scratch[3] = 4;
  return hashOf(scratch, 0, 4);
}

/** The same network from an address string (the libuv path's rinfo.address). */
function networkOfAddress(address) {
  const mapped = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!mapped.includes(':')) {
    const [a, b, c] = mapped.split('.').map(Number);
    return networkOf4(a, b, c);
  }
  const [head, tail = ''] = mapped.split('::');
  const left = head ? head.split(':') : [];
  const right = mapped.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right].map((g) => parseInt(g || '0', 16) || 0);
  const bytes = Buffer.from([groups[0] >> 8, groups[0] & 255, groups[1] >> 8, groups[1] & 255, groups[2] >> 8, groups[2] & 255, groups[3] >> 8, 6]);
  return hashOf(bytes, 0, 8);
}

/** The end of the question section of the first `length` bytes of `m`, or -1. */
function questionEnd(m, length = m.length) {
  let offset = 12;
  while (offset < length && m[offset] !== 0) {
    if ((m[offset] & 0xc0) !== 0) return -1;
    offset += m[offset] + 1;
  }
  offset += 5;
  return offset <= length ? offset : -1;
}

/**
 * Per second, per client network and answer (the question, letter case folded, or any NXDOMAIN): 'send', 'truncate'
 * or 'drop'. Slots of [second, hash, count] claimed with compare-and-swap.
 */
function rrlVerdict(table, perSecond, network, query, queryLength, answer) {
  const second = Math.floor(Date.now() / 1000) | 0;
  const rcode = answer.length > 3 ? answer[3] & 0xf : 0;
  let h = Math.imul(network ^ (rcode + 1), 0x01000193);
  if (rcode !== 3) {
    const end = questionEnd(query, queryLength);
    if (end < 0) h = Math.imul(h ^ 0xff, 0x01000193);
    else for (let i = 12; i < end; i += 1) h = Math.imul(h ^ (query[i] >= 65 && query[i] <= 90 ? query[i] | 0x20 : query[i]), 0x01000193);
  }
  let seen = -1;
  for (let probe = 0; probe < RRL_PROBES; probe += 1) {
    const slot = ((h + probe) & RRL_MASK) * 3;
    const at = Atomics.load(table, slot);
    if (at === second) {
      if (Atomics.load(table, slot + 1) !== h) continue;
      seen = Atomics.add(table, slot + 2, 1) + 1;
      break;
    }
    if (Atomics.compareExchange(table, slot, at, second) === at) {
      Atomics.store(table, slot + 2, 1);
      Atomics.store(table, slot + 1, h);
      seen = 1;
      break;
    }
    probe -= 1; // another thread took this slot this second: look at it again
  }
  // A second's table full of other answers: this one is limited (as rrl.ts past 100,000 keys).
  if (seen < 0) return 'drop';
  if (seen <= perSecond) return 'send';
  return (seen - perSecond) % 2 === 0 ? 'truncate' : 'drop';
}

/** The answer cut to its question, TC set (a limited client asks again over TCP), written into `out`: its length, or -1. */
function truncateInto(answer, out) {
  const end = questionEnd(answer);
  if (end < 0 || answer[4] !== 0 || answer[5] !== 1 || end > out.length) return -1;
  answer.copy(out, 0, 0, end);
  out[2] |= 0x02;
  out.fill(0, 6, 12);
  return end;
}

module.exports = { RRL_SLOTS, hashOf, networkOfSockaddr, networkOfAddress, questionEnd, rrlVerdict, truncateInto };
