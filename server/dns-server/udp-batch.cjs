/*
 * Batched UDP reads and writes for a DNS thread (udp-thread.cjs), through libc's poll, recvmmsg and sendmmsg called
 * with koffi: up to BATCH datagrams per system call instead of one recvmsg, one sendmsg and one callback into
 * JavaScript per datagram (Node's libuv path). Linux x86-64/arm64 only (the struct layouts below are LP64 Linux's);
 * `openBatch` answers null elsewhere, and the thread keeps the libuv path.
 *
 * Everything lives in ONE native allocation made once (koffi.alloc), addressed by its absolute address and read and
 * written from JavaScript through one ArrayBuffer over it (koffi.view): the pollfd, BATCH mmsghdrs + iovecs +
 * sockaddr_in6 slots + query buffers to receive into, BATCH mmsghdrs + iovecs + answer buffers to send from. No
 * allocation and no FFI call per datagram. A reply's msg_name points at the sockaddr the query came from (the same
 * bytes, no copy, no address string).
 */
'use strict';

const BATCH = 64;
/** A query longer than this is cut by the kernel (MSG_TRUNC) and dropped: no DNS query over UDP is that long. */
const QUERY_SIZE = 4096;
/** The largest UDP answer the server sends (server.ts EDNS_UDP_SIZE). */
const ANSWER_SIZE = 1232;
const MSG_DONTWAIT = 0x40;
const MSG_TRUNC = 0x20;
const POLLIN = 0x1;
const EAGAIN = 11;
const EINTR = 4;

// struct mmsghdr on LP64 Linux: msghdr { name 0, namelen 8, iov 16, iovlen 24, control 32, controllen 40, flags 48 }, msg_len 56; 64 bytes.
const MMSG = 64;
const IOV = 16;
const ADDR = 32; // sockaddr_in6 is 28 bytes

const POLLFD_AT = 0;
const RECV_AT = 64;
const RECV_IOV_AT = RECV_AT + BATCH * MMSG;
const ADDR_AT = RECV_IOV_AT + BATCH * IOV;
const QUERY_AT = ADDR_AT + BATCH * ADDR;
const SEND_AT = QUERY_AT + BATCH * QUERY_SIZE;
const SEND_IOV_AT = SEND_AT + BATCH * MMSG;
const ANSWER_AT = SEND_IOV_AT + BATCH * IOV;
const TOTAL = ANSWER_AT + BATCH * ANSWER_SIZE;

let libc;
function load() {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) return null;
  try {
    const koffi = require('koffi');
    const lib = koffi.load('libc.so.6');
    libc = {
      koffi,
      poll: lib.func('int poll(uintptr_t fds, unsigned long nfds, int timeout)'),
      recvmmsg: lib.func('int recvmmsg(int fd, uintptr_t vec, unsigned int vlen, int flags, uintptr_t timeout)'),
      sendmmsg: lib.func('int sendmmsg(int fd, uintptr_t vec, unsigned int vlen, int flags)'),
    };
  } catch {
    libc = null;
  }
  return libc;
}

/**
 * Batched I/O on a bound, non-blocking UDP socket given by `use(fd)` (libuv made it O_NONBLOCK, so this blocks in
 * poll only); null where koffi or these calls are missing.
 */
function openBatch() {
  const c = load();
  if (c === null) return null;
  const memory = c.koffi.alloc('uint8_t', TOTAL);
  const base = Number(c.koffi.address(memory));
  const bytes = Buffer.from(c.koffi.view(memory, TOTAL));
  bytes.fill(0);
  const view = new DataView(bytes.buffer, bytes.byteOffset, TOTAL);
  const put = (at, value) => view.setBigUint64(at, BigInt(value), true);
  let fd = -1;
  view.setInt16(POLLFD_AT + 4, POLLIN, true);
  for (let i = 0; i < BATCH; i += 1) {
    const r = RECV_AT + i * MMSG;
    put(r, base + ADDR_AT + i * ADDR);
    view.setUint32(r + 8, ADDR, true);
    put(r + 16, base + RECV_IOV_AT + i * IOV);
    put(r + 24, 1);
    put(RECV_IOV_AT + i * IOV, base + QUERY_AT + i * QUERY_SIZE);
    put(RECV_IOV_AT + i * IOV + 8, QUERY_SIZE);
    const s = SEND_AT + i * MMSG;
    put(s + 16, base + SEND_IOV_AT + i * IOV);
    put(s + 24, 1);
    put(SEND_IOV_AT + i * IOV, base + ANSWER_AT + i * ANSWER_SIZE);
  }
  // One Buffer per slot, made once: a query is read as (queries[i], lengths[i]), an answer written into answers[i].
  const queries = Array.from({ length: BATCH }, (_, i) => bytes.subarray(QUERY_AT + i * QUERY_SIZE, QUERY_AT + (i + 1) * QUERY_SIZE));
  const answers = Array.from({ length: BATCH }, (_, i) => bytes.subarray(ANSWER_AT + i * ANSWER_SIZE, ANSWER_AT + (i + 1) * ANSWER_SIZE));
  const addresses = Array.from({ length: BATCH }, (_, i) => bytes.subarray(ADDR_AT + i * ADDR, ADDR_AT + (i + 1) * ADDR));
  const lengths = new Int32Array(BATCH);
  let queued = 0;
  return {
    BATCH,
    ANSWER_SIZE,
    queries,
    lengths,
    answers,
    /** The sockaddr a query came from (family, port, address as the kernel wrote them). */
    addresses,
    /** Reads and writes `socket` from now on (one allocation serves every socket a thread is given in turn). */
    use(socket) {
      fd = socket;
      view.setInt32(POLLFD_AT, fd, true);
    },
    /** Waits up to `ms` for datagrams; false on timeout (or a signal). */
    wait(ms) {
      view.setInt16(POLLFD_AT + 6, 0, true);
      return c.poll(base + POLLFD_AT, 1, ms) > 0;
    },
    /** Takes up to BATCH datagrams at once: how many (0 when none is waiting, -errno on a failure other than EAGAIN). */
    receive() {
      for (let i = 0; i < BATCH; i += 1) view.setUint32(RECV_AT + i * MMSG + 8, ADDR, true);
      const n = c.recvmmsg(fd, base + RECV_AT, BATCH, MSG_DONTWAIT, 0);
      if (n < 0) {
        const errno = c.koffi.errno();
        return errno === EAGAIN || errno === EINTR ? 0 : -errno;
      }
      for (let i = 0; i < n; i += 1) {
        const r = RECV_AT + i * MMSG;
        lengths[i] = (view.getInt32(r + 48, true) & MSG_TRUNC) !== 0 ? -1 : view.getUint32(r + 56, true);
      }
      return n;
    },
    /** Where the next answer is written (then `reply`). */
    next() {
      return answers[queued];
    },
    /** Queues the answer written into next() (`length` bytes) to the sender of query `from`. */
    reply(from, length) {
      const s = SEND_AT + queued * MMSG;
      put(s, base + ADDR_AT + from * ADDR);
      view.setUint32(s + 8, view.getUint32(RECV_AT + from * MMSG + 8, true), true);
      put(SEND_IOV_AT + queued * IOV + 8, length);
      queued += 1;
    },
    /**
     * Sends what `reply` queued, in one call. What the kernel does not take at once (a full socket buffer: sendmmsg
     * stops at the first datagram it cannot queue) is tried a few times more, then dropped, as a full buffer drops a
     * datagram: a resolver asks again, and waiting here would stall every other query. A datagram refused for
     * another reason (an unreachable address) is skipped, not the ones after it.
     */
    flush() {
      let sent = 0;
      for (let tries = 0; sent < queued && tries < 8; tries += 1) {
        const n = c.sendmmsg(fd, base + SEND_AT + sent * MMSG, queued - sent, MSG_DONTWAIT);
        if (n > 0) sent += n;
        else if (c.koffi.errno() !== EAGAIN && c.koffi.errno() !== EINTR) sent += 1;
      }
      const done = queued;
      queued = 0;
      return done;
    },
  };
}

module.exports = { openBatch };
