/*
 * One UDP thread of the name server (started by udp-threads.ts; plain JavaScript so a worker loads it without a
 * TypeScript loader). It reads the one bound UDP socket (the main thread's, by its file descriptor: the kernel hands
 * each datagram to one of the threads) and answers what the packet cache holds: the kept answer, its ID patched in.
 * Anything else goes to the main thread, which resolves it and sends the answer itself on its own handle of the same
 * socket. The cache is one table in shared memory (answer-table.cjs) that the main thread writes and every thread
 * reads: the main thread's new entry is every thread's next hit, and a drop is a counter the main thread bumps, which
 * every thread checks on each hit, so no thread answers a stale record once the main thread knows of the change.
 *
 * Two ways to read and write, chosen at each attach: batched (udp-batch.cjs: poll, then up to 64 datagrams per
 * recvmmsg and per sendmmsg; the thread's event loop is blocked in poll, so it takes the main thread's messages with
 * receiveMessageOnPort on each turn and sends its counts from there), or, where that is missing (not Linux, no koffi),
 * Node's UDP handle (one recvmsg, one callback and one sendmsg per datagram).
 *
 * Per packet: no string keys (a 32-bit hash of the query after its ID, checked byte for byte), the answer copied
 * from the table into the reply buffer and its entry checked unchanged after, no allocation for counting
 * (udp-hit-counts.cjs; the counts go to the main thread every 250 ms). RRL is one table shared by every thread
 * (udp-rrl.cjs), so its limits hold per client across threads.
 *
 * DNS cookies (cookies.cjs): a query with a cookie is looked up without it, as the main thread keys it, and the
 * thread appends the server cookie it makes (or takes back) for that client, under the secrets it derives from the
 * master secret the main thread hands it at attach; a query with a valid server cookie passes RRL.
 */
'use strict';
const { parentPort, receiveMessageOnPort } = require('node:worker_threads');
const { networkOfAddress, networkOfSockaddr, rrlVerdict, truncateInto } = require('./udp-rrl.cjs');
const { openBatch } = require('./udp-batch.cjs');
const { openTable } = require('./answer-table.cjs');
const { answerInto, answerReader, find, zoneAnswerInto } = require('./udp-answer.cjs');
const { zoneReader } = require('./thread-zone.cjs');
const { hitCounts } = require('./udp-hit-counts.cjs');
const { OPTION_SIZE, addressBytes, cookieSecrets, sockaddrBytes } = require('./cookies.cjs');

// Node's own UDP handle, as node:dgram uses it, without dgram's per-datagram address lookup, tick and event.
const { UDP, SendWrap } = process.binding('udp_wrap');

const FLUSH_MS = 250;
/** A reply buffer on the libuv path for an answer written from a compiled zone: the most this server sends over UDP, and a cookie. */
const ANSWER_ROOM = 1232 + OPTION_SIZE;
/** How long the batched loop waits in poll before it looks at its messages and the stop flag again. */
const POLL_MS = 200;

/** The shared answer table's reader (answer-table.cjs openTable), made at attach: what `find` found is left in it. */
let table = null;
const hits = hitCounts();
let active = null;
let lastFlush = Date.now();
/** The batched I/O, made once per thread at its first batched attach (null: this system has none). */
let batch;

/** The table's reader and the query's cookie (udp-answer.cjs), made at attach. */
let reader = null;
/** The reader of the zones compiled for the threads (thread-zone.cjs), made at attach. */
let zones = null;
/** The clock in seconds, for cookies: read once per batch (per datagram on the libuv path). */
let nowSeconds = 0;

/** The control words shared with the main thread (udp-threads.ts): the misses it is resolving, and those dropped. */
const IN_FLIGHT = 1;
const DROPPED = 2;

/**
 * Whether a miss may go to the main thread: a place taken among the misses it resolves at once, or, all taken, the
 * miss counted as dropped (the client asks again) so that a flood of misses costs the main thread nothing.
 */
function missTaken() {
  const control = active.control;
  if (Atomics.add(control, IN_FLIGHT, 1) < active.missBound) return true;
  Atomics.sub(control, IN_FLIGHT, 1);
  Atomics.add(control, DROPPED, 1);
  return false;
}

/** A hit to count (udp-hit-counts.cjs); when the period's arrays are full, its counts go now. */
function counted(fromZone) {
  if (fromZone ? hits.countZone(zones) : hits.count(table)) return;
  flush();
  if (fromZone) hits.countZone(zones);
  else hits.count(table);
}

function flush() {
  lastFlush = Date.now();
  if (hits.empty) return;
  const { counts, zones } = hits.take();
  parentPort.postMessage({ type: 'counts', counts, zones });
}

// --- The libuv path -------------------------------------------------------------------------------------------

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

/** A hit answered on this path gets a buffer of its own: the send may keep it past this call (the kernel queued it). */
function onMessage(nread, _handle, query, rinfo) {
  if (nread <= 0 || active === null) return;
  const found = find(reader, query, query.length);
  let out = Buffer.allocUnsafe(found ? table.udpLength + OPTION_SIZE : ANSWER_ROOM);
  if (reader.cookieAt >= 0) nowSeconds = Math.floor(Date.now() / 1000);
  const ip = reader.cookieAt >= 0 ? addressBytes(rinfo.address) : null;
  let length = found ? answerInto(reader, query, ip, nowSeconds, out) : -1;
  let fromZone = false;
  if (length < 0) {
    if (out.length < ANSWER_ROOM) out = Buffer.allocUnsafe(ANSWER_ROOM);
    length = zoneAnswerInto(reader, zones, query, query.length, ip, nowSeconds, out);
    fromZone = length >= 0;
  }
  if (length < 0) {
    if (!missTaken()) return;
    parentPort.postMessage({ type: 'miss', query, port: rinfo.port, address: rinfo.address, network: networkOfAddress(rinfo.address) });
    return;
  }
  counted(fromZone);
  const proven = reader.proven;
  out = out.subarray(0, length);
  if (active.rrl !== null && !proven) {
    const verdict = rrlVerdict(active.rrl, active.rrlPerSecond, networkOfAddress(rinfo.address), query, query.length, out);
    if (verdict === 'drop') return;
    if (verdict === 'truncate') {
      const short = Buffer.alloc(out.length);
      const length = truncateInto(out, short);
      if (length > 0) send(short.subarray(0, length), rinfo.port, rinfo.address);
      return;
    }
  }
  send(out, rinfo.port, rinfo.address);
}

setInterval(() => {
  if (active !== null && active.handle !== null) flush();
}, FLUSH_MS).unref();

// --- The batched path -----------------------------------------------------------------------------------------

/** The sender of a query, as the main thread's handle takes it: port and address string (for a miss only). */
function senderOf(addr) {
  const port = (addr[2] << 8) | addr[3];
  if (addr[0] + (addr[1] << 8) !== 10) return { port, address: `${addr[4]}.${addr[5]}.${addr[6]}.${addr[7]}` };
  const groups = [];
  for (let i = 8; i < 24; i += 2) groups.push(((addr[i] << 8) | addr[i + 1]).toString(16));
  return { port, address: groups.join(':') };
}

/** Answers query `i` of the batch from the table, written straight into its reply buffer, or hands it to the main thread. */
function answerOne(io, i) {
  const q = io.queries[i];
  const n = io.lengths[i];
  if (n < 12) return; // cut by the kernel (longer than any UDP query) or not DNS: dropped
  const out = io.next();
  const found = find(reader, q, n);
  const ip = reader.cookieAt >= 0 ? sockaddrBytes(io.addresses[i]) : null;
  let length = found ? answerInto(reader, q, ip, nowSeconds, out) : -1;
  let fromZone = false;
  if (length < 0) {
    length = zoneAnswerInto(reader, zones, q, n, ip, nowSeconds, out);
    fromZone = length >= 0;
  }
  if (length < 0) {
    if (!missTaken()) return;
    const { port, address } = senderOf(io.addresses[i]);
    parentPort.postMessage({ type: 'miss', query: new Uint8Array(q.subarray(0, n)), port, address, network: networkOfSockaddr(io.addresses[i]) });
    return;
  }
  counted(fromZone);
  const proven = reader.proven;
  if (active.rrl !== null && !proven) {
    const verdict = rrlVerdict(active.rrl, active.rrlPerSecond, networkOfSockaddr(io.addresses[i]), q, n, out);
    if (verdict === 'drop') return;
    if (verdict === 'truncate') {
      // In place: the question stays where it is, the rest is cut.
      const short = truncateInto(out, out);
      if (short > 0) io.reply(i, short);
      return;
    }
  }
  io.reply(i, length);
}

/** The main thread's messages waiting on the port, taken without the event loop (which poll blocks). */
function drain(port) {
  for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) handle(m.message);
}

function batchedLoop(io, session) {
  while (active === session) {
    drain(session.port);
    if (active !== session) break;
    if (Date.now() - lastFlush >= FLUSH_MS) flush();
    let n = io.receive();
    if (n === 0) {
      io.wait(POLL_MS);
      // The stop flag: the main thread sets it before it sends the detach, which the next turn's drain reads.
      if (Atomics.load(session.control, 0) !== 0) continue;
      n = io.receive();
    }
    if (n < 0) {
      console.error(`DNS: a UDP thread cannot read the socket (errno ${-n}); it stops reading`);
      break;
    }
    if (n === 0) continue;
    nowSeconds = Math.floor(Date.now() / 1000);
    for (let i = 0; i < n; i += 1) answerOne(io, i);
    io.flush();
  }
  // Left poll for good: the main thread may close the socket once it has the detach answer (sent from handle()).
  // Stopped by a failure instead: the detach comes through the event loop.
  if (active === session) session.port.on('message', handle);
}

// --- Messages -------------------------------------------------------------------------------------------------

function handle(m) {
  if (m.type === 'detach') {
    // The socket is the main thread's: it closes it. A libuv handle stops reading and is left unclosed (closing it
    // would close the main thread's descriptor, or whatever file took its number since).
    if (active === null) return;
    if (active.handle !== null) active.handle.recvStop();
    const { port } = active;
    active = null;
    table = null;
    reader = null;
    zones = null;
    flush();
    port.close();
    parentPort.postMessage({ type: 'detached' });
  }
}

parentPort.on('message', (m) => {
  if (m.type !== 'attach') return;
  table = openTable(m.table);
  const control = new Int32Array(m.control);
  if (m.batched && batch === undefined) batch = openBatch();
  const io = m.batched ? batch : null;
  const secrets = m.cookieMaster ? cookieSecrets(Buffer.from(m.cookieMaster)) : null;
  reader = answerReader(table, secrets);
  zones = zoneReader(table);
  const session = { handle: null, family: m.family, control, rrl: m.rrl ? new Int32Array(m.rrl) : null, rrlPerSecond: m.rrlPerSecond, port: m.port, secrets, missBound: m.missBound };
  if (io !== null) {
    io.use(m.fd);
    active = session;
    parentPort.postMessage({ type: 'attached', error: 0, batched: true });
    setImmediate(() => batchedLoop(io, session));
    return;
  }
  const udp = new UDP();
  const error = udp.open(m.fd);
  if (error !== 0) return parentPort.postMessage({ type: 'attached', error });
  session.handle = udp;
  active = session;
  m.port.on('message', handle);
  udp.onmessage = onMessage;
  udp.recvStart();
  parentPort.postMessage({ type: 'attached', error: 0, batched: false });
});
