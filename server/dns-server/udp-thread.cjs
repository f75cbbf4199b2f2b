/*
 * One UDP thread of the name server (started by udp-threads.ts; plain JavaScript so a worker loads it without a
 * TypeScript loader). It reads the one bound UDP socket (the main thread's, by its file descriptor: the kernel hands
 * each datagram to one of the threads) and answers what the packet cache holds: the kept answer, its ID patched in,
 * sent at once. Anything else goes to the main thread, which resolves it and hands the answer back (and the entry, so
 * the next one is a hit). The cache here is a copy the main thread fills and drops per zone; a shared epoch, bumped by
 * the main thread before it tells the threads of a drop, makes every thread stop answering from its copy until it has
 * read that drop, so no thread answers a stale record once the main thread knows of the change.
 *
 * Per packet: no string keys (a 32-bit hash of the query after its ID, checked byte for byte), no copy (the kept
 * answer is patched and sent; copied only if the kernel could not take it at once), no allocation for counting
 * (a hit adds one to its entry; the counts go to the main thread every 250 ms). RRL is one table shared by every
 * thread (a SharedArrayBuffer), so its limits hold per client across threads.
 */
'use strict';
const { parentPort } = require('node:worker_threads');

// Node's own UDP handle, as node:dgram uses it, without dgram's per-datagram address lookup, tick and event.
const { UDP, SendWrap } = process.binding('udp_wrap');

const FLUSH_MS = 250;
const RRL_SLOTS = 1 << 16;
const RRL_MASK = RRL_SLOTS - 1;
const RRL_PROBES = 8;

/** hash -> { key: Buffer, answer: Buffer, zone: string | null, tally: object | null, hits: number } */
let entries = new Map();
/** zone ('' = none) -> Set of hashes */
let hashesByZone = new Map();
let dirty = [];
let active = null;
let localEpoch = 0;

function hashOf(bytes, start, end) {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i += 1) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h | 0;
}

/** The packet cache's rule (packet-cache.ts `cacheable`): opcode QUERY, one question, at most an OPT record, no TSIG. */
function cacheable(q) {
  if (q.length < 17 || q.length > 512) return false;
  if ((q[2] & 0x80) !== 0 || (q[2] & 0x78) !== 0) return false;
  if (q[4] !== 0 || q[5] !== 1 || q[6] !== 0 || q[7] !== 0 || q[8] !== 0 || q[9] !== 0 || q[10] !== 0 || q[11] > 1) return false;
  if (q[11] === 0) return true;
  let offset = 12;
  while (offset < q.length && q[offset] !== 0) offset += q[offset] + 1;
  offset += 5;
  if (offset + 3 > q.length) return false;
  return q[offset] === 0 && q[offset + 1] === 0 && q[offset + 2] === 41;
}

function lookup(q) {
  const entry = entries.get(hashOf(q, 2, q.length));
  if (entry === undefined || entry.key.length !== q.length - 2 || q.compare(entry.key, 0, entry.key.length, 2, q.length) !== 0) return undefined;
  return entry;
}

function keep(set) {
  const key = Buffer.from(set.key);
  const h = hashOf(key, 0, key.length);
  const old = entries.get(h);
  if (old !== undefined) hashesByZone.get(old.zone ?? '')?.delete(h);
  entries.set(h, { key, answer: Buffer.from(set.answer), zone: set.zone, tally: set.tally, hits: 0 });
  const zone = set.zone ?? '';
  let hashes = hashesByZone.get(zone);
  if (hashes === undefined) hashesByZone.set(zone, (hashes = new Set()));
  hashes.add(h);
}

/** packet-cache.ts `touches`: a change of `changed` drops its own answers and those of zones above and below it. */
function touches(changed, zone) {
  return zone === changed || zone.endsWith(`.${changed}`) || changed.endsWith(`.${zone}`);
}

function drop(zone) {
  if (zone === null) {
    entries = new Map();
    hashesByZone = new Map();
    return;
  }
  for (const [kept, hashes] of hashesByZone) {
    if (kept !== '' && !touches(zone, kept)) continue;
    for (const h of hashes) entries.delete(h);
    hashesByZone.delete(kept);
  }
}

/** The end of the question section, or -1. */
function questionEnd(m) {
  let offset = 12;
  while (offset < m.length && m[offset] !== 0) {
    if ((m[offset] & 0xc0) !== 0) return -1;
    offset += m[offset] + 1;
  }
  offset += 5;
  return offset <= m.length ? offset : -1;
}

/** The client's network as RRL counts it (server/net/addresses.ts clientNetwork): IPv4 /24, IPv6 /56, hashed. */
function networkHash(address) {
  const mapped = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!mapped.includes(':')) {
    let h = 0x811c9dc5;
    for (let i = 0, end = mapped.lastIndexOf('.'); i < end; i += 1) h = Math.imul(h ^ mapped.charCodeAt(i), 0x01000193);
    return h | 0;
  }
  const [head, tail = ''] = mapped.split('::');
  const left = head ? head.split(':') : [];
  const right = mapped.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right].map((g) => parseInt(g || '0', 16) || 0);
  return hashOf(Buffer.from([groups[0] >> 8, groups[0] & 255, groups[1] >> 8, groups[1] & 255, groups[2] >> 8, groups[2] & 255, groups[3] >> 8, 6]), 0, 8);
}

/**
 * responseRateLimiter (rrl.ts) over a table every thread shares: per second, per client network and answer (the
 * question, letter case folded, or any NXDOMAIN), slots of [second, hash, count] claimed with compare-and-swap.
 */
function rrlVerdict(table, perSecond, address, query, answer) {
  const second = Math.floor(Date.now() / 1000) | 0;
  const rcode = answer.length > 3 ? answer[3] & 0xf : 0;
  let h = Math.imul(networkHash(address) ^ (rcode + 1), 0x01000193);
  if (rcode !== 3) {
    const end = questionEnd(query);
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

function truncated(answer) {
  const end = questionEnd(answer);
  if (end < 0 || answer[4] !== 0 || answer[5] !== 1) return null;
  const out = Buffer.from(answer.subarray(0, end));
  out[2] |= 0x02;
  out.fill(0, 6, 12);
  return out;
}

/** One send request and one list, reused while the kernel takes each datagram at once (uv_udp_try_send). */
let request = new SendWrap();
const list = [null];

/** Sends `out`; answers whether the kernel took it at once (else the send holds the buffer until it completes). */
function send(out, port, address) {
  list[0] = out;
  const result = active.family === 6 ? active.handle.send6(request, list, 1, port, address, false) : active.handle.send(request, list, 1, port, address, false);
  list[0] = null;
  if (result !== 0) return true;
  // Queued: this request and buffer belong to the send until it completes.
  request.buffer = out;
  request = new SendWrap();
  return false;
}

function answer(out, query, port, address) {
  if (active.rrl !== null) {
    const verdict = rrlVerdict(active.rrl, active.rrlPerSecond, address, query, out);
    if (verdict === 'drop') return true;
    if (verdict === 'truncate') {
      const short = truncated(out);
      if (short !== null) send(short, port, address);
      return true;
    }
  }
  return send(out, port, address);
}

function onMessage(nread, _handle, query, rinfo) {
  if (nread <= 0 || active === null) return;
  const entry = cacheable(query) && Atomics.load(active.epoch, 0) === localEpoch ? lookup(query) : undefined;
  if (entry === undefined) {
    parentPort.postMessage({ type: 'miss', query, port: rinfo.port, address: rinfo.address });
    return;
  }
  if (entry.hits++ === 0 && entry.tally !== null) dirty.push(entry);
  const out = entry.answer;
  out[0] = query[0];
  out[1] = query[1];
  // Queued instead of sent: that buffer is the send's now, the entry keeps a copy.
  if (!answer(out, query, rinfo.port, rinfo.address)) entry.answer = Buffer.from(out);
}

function flush() {
  if (dirty.length === 0) return;
  const counts = dirty.map((entry) => [entry.tally, entry.hits]);
  for (const entry of dirty) entry.hits = 0;
  dirty = [];
  parentPort.postMessage({ type: 'counts', counts });
}
setInterval(flush, FLUSH_MS).unref();

parentPort.on('message', (m) => {
  if (m.type === 'set') keep(m);
  else if (m.type === 'drop') {
    drop(m.zone);
    localEpoch = m.epoch;
  } else if (m.type === 'reply') {
    if (active === null) return;
    if (m.set) keep(m.set);
    const out = Buffer.from(m.answer.buffer, m.answer.byteOffset, m.answer.length);
    answer(out, Buffer.from(m.query.buffer, m.query.byteOffset, m.query.length), m.port, m.address);
  } else if (m.type === 'attach') {
    const handle = new UDP();
    const error = handle.open(m.fd);
    if (error !== 0) return parentPort.postMessage({ type: 'attached', error });
    entries = new Map();
    hashesByZone = new Map();
    localEpoch = Atomics.load(new Int32Array(m.epoch), 0);
    active = { handle, family: m.family, epoch: new Int32Array(m.epoch), rrl: m.rrl ? new Int32Array(m.rrl) : null, rrlPerSecond: m.rrlPerSecond };
    handle.onmessage = onMessage;
    handle.recvStart();
    parentPort.postMessage({ type: 'attached', error: 0 });
  } else if (m.type === 'detach') {
    // The socket is the main thread's: it closes it. This handle stops reading and is left unclosed (closing it
    // would close the main thread's descriptor, or whatever file took its number since).
    if (active !== null) active.handle.recvStop();
    active = null;
    entries = new Map();
    hashesByZone = new Map();
    flush();
    parentPort.postMessage({ type: 'detached' });
  }
});
