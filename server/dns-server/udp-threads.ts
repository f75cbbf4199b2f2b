/**
 * UDP answered by worker threads (udp-thread.cjs) that all read one socket, bound here on the main thread: one Node
 * thread spends most of each query in the recvmsg, the sendmsg and the callback between them, so the answers from
 * the packet cache are spread over threads. The main thread keeps the zones and writes the packet cache, a table in
 * shared memory every thread reads (answer-table.cjs), and resolves what the threads do not find there: a thread
 * sends it the query, it answers through the cache (so the entry is every thread's next hit) and sends the answer
 * itself, through the shared RRL, on its own handle of the socket (a thread blocked in poll would send it only at its
 * next turn). See docs/service/dns.md.
 *
 * Back-pressure: the misses the main thread is resolving are counted in shared memory, and past MISSES_IN_FLIGHT a
 * thread drops a miss itself (no message, no work here: a UDP client asks again), so that a flood of questions no
 * cache holds (random zones, random names) cannot queue unbounded work on the main thread, while the threads keep
 * answering what the cache holds. What was dropped is counted (`misses()`).
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { getSystemErrorName } from 'node:util';
import type { CachedAnswer, PacketCache } from './packet-cache.ts';
import type { Tally } from './query-counts.ts';

type SendRequest = object & { buffer?: Buffer };

interface RawUdp {
  bind(address: string, port: number, flags: number): number;
  bind6(address: string, port: number, flags: number): number;
  send(request: SendRequest, list: Buffer[], count: number, port: number, address: string, hasCallback: boolean): number;
  send6(request: SendRequest, list: Buffer[], count: number, port: number, address: string, hasCallback: boolean): number;
  readonly fd: number;
  close(done?: () => void): void;
}

interface UdpBinding {
  UDP: new () => RawUdp;
  SendWrap: new () => SendRequest;
}

/** The threads' response-rate limiting (udp-rrl.cjs), which the main thread applies to the misses it answers. */
const shared = createRequire(import.meta.url)('./udp-rrl.cjs') as {
  RRL_SLOTS: number;
  rrlVerdict(table: Int32Array, perSecond: number, network: number, query: Buffer, length: number, answer: Buffer): 'send' | 'truncate' | 'drop';
  truncateInto(answer: Buffer, out: Buffer): number;
};

/** The tallies the threads write as bytes for answers from compiled zones, read back here (thread-zone.cjs). */
const { readTallies } = createRequire(import.meta.url)('./thread-zone.cjs') as { readTallies(bytes: Buffer): Array<[Tally, number]> };

/** Node's own UDP handle (node:dgram's), which can share its descriptor with a worker; null where Node has none. */
function udpBinding(): UdpBinding | null {
  try {
    return (process as unknown as { binding(name: string): UdpBinding }).binding('udp_wrap');
  } catch {
    return null;
  }
}

/** The misses the main thread resolves at once, at most; past it the threads drop them (see the top). */
const MISSES_IN_FLIGHT = 256;
/** The control words shared with the threads: the stop flag, the misses in flight, the misses dropped. */
const STOP = 0;
const IN_FLIGHT = 1;
const DROPPED = 2;

/** The threads' misses: in flight on the main thread now, the most there were at once, and how many were dropped. */
export interface MissStats {
  bound: number;
  inFlight: number;
  peak: number;
  dropped: number;
  /** Misses answered here since the start (what the threads could not answer themselves). */
  answered: number;
}

type ThreadMessage =
  | { type: 'attached'; error: number; batched?: boolean }
  | { type: 'detached' }
  | { type: 'miss'; query: Uint8Array; port: number; address: string; network: number }
  /** `zones`: the tallies of answers from compiled zones, as bytes (thread-zone.cjs readTallies). */
  | { type: 'counts'; counts: Array<[Tally, number]>; zones: Uint8Array | null };

/** Threads kept for the process: a thread never closes a descriptor it shares (see udp-thread.cjs), so it is reused, never ended. */
const idle: Worker[] = [];
const THREAD_FILE = fileURLToPath(new URL('./udp-thread.cjs', import.meta.url));

function takeThread(): Worker {
  const kept = idle.pop();
  if (kept) return kept;
  // No --import tsx (the thread is plain JavaScript): a loader would add a thread and an isolate of its own.
  const worker = new Worker(THREAD_FILE, { execArgv: [], stdout: false, stderr: false });
  worker.unref();
  // A thread that failed is never handed out again; its failure is logged, never thrown at the service.
  worker.on('error', (error) => console.error('DNS: a UDP thread failed', error));
  worker.once('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

function next<T extends ThreadMessage['type']>(worker: Worker, type: T): Promise<Extract<ThreadMessage, { type: T }>> {
  return new Promise((done, fail) => {
    const onMessage = (m: ThreadMessage) => {
      if (m.type !== type) return;
      worker.off('message', onMessage);
      worker.off('error', fail);
      done(m as Extract<ThreadMessage, { type: T }>);
    };
    worker.on('message', onMessage);
    worker.once('error', fail);
  });
}

export interface UdpThreadsOptions {
  host: string;
  port: number;
  threads: number;
  rrlPerSecond: number;
  cache: PacketCache<Tally | null>;
  /** Answers a query a thread did not hold, through the cache (the sender's address: a keyed request's limits); null when there is nothing to send. */
  answer(query: Buffer, address: string): Promise<{ entry: CachedAnswer<Tally | null>; hit: boolean; key: Buffer | null } | null>;
  /** The bytes of a cache entry to send `query`'s client (its ID, its cookie) and whether its server cookie was valid. */
  send(entry: CachedAnswer<Tally | null>, query: Buffer, address: string): { bytes: Buffer; proven: boolean };
  /** The cookies' master secret (cookie-secret.ts), from which every thread derives the same secrets; null: no cookies. */
  cookieMaster: Buffer | null;
  count(tally: Tally, n: number): void;
  /** Batched reads and writes (udp-batch.cjs) where this system has them; false: Node's UDP handle in every thread. */
  batched?: boolean;
  /** The misses resolved at once (default MISSES_IN_FLIGHT). */
  missesInFlight?: number;
}

/** Binds UDP on `host`:`port` and answers it from `threads` threads; null where this Node cannot share the socket (then dgram on the main thread). */
export async function startUdpThreads(options: UdpThreadsOptions): Promise<{ close(): Promise<void>; batched: boolean; misses(): MissStats } | null> {
  const binding = udpBinding();
  const family = isIP(options.host);
  if (!binding || options.threads < 1 || family === 0) return null;
  const handle = new binding.UDP();
  const error = family === 6 ? handle.bind6(options.host, options.port, 0) : handle.bind(options.host, options.port, 0);
  if (error !== 0) {
    handle.close();
    throw Object.assign(new Error(`bind ${getSystemErrorName(error)} ${options.host}:${options.port}`), { code: getSystemErrorName(error) });
  }
  // [STOP] set before the threads are told to detach; [IN_FLIGHT] a thread adds one per miss it sends, this thread
  // takes it off once answered; [DROPPED] what the threads dropped past the bound.
  const controlBuffer = new SharedArrayBuffer(12);
  const control = new Int32Array(controlBuffer);
  const missBound = options.missesInFlight ?? MISSES_IN_FLIGHT;
  /** Misses being answered here, and the most at once. */
  let answering = 0;
  let peak = 0;
  let answered = 0;
  const rrlBuffer = options.rrlPerSecond > 0 ? new SharedArrayBuffer(shared.RRL_SLOTS * 3 * 4) : null;
  const rrl = rrlBuffer ? new Int32Array(rrlBuffer) : null;
  const workers: Worker[] = [];
  /** Each thread's port: the detach goes there (a batched thread reads it between polls). */
  const ports = new Map<Worker, MessagePort>();
  /** A miss answered here, sent on this thread's handle of the socket, through the same RRL as the threads'. */
  const sendMiss = (answer: Buffer, proven: boolean, query: Buffer, m: Extract<ThreadMessage, { type: 'miss' }>) => {
    let out: Buffer | null = answer;
    if (rrl && !proven) {
      const verdict = shared.rrlVerdict(rrl, options.rrlPerSecond, m.network, query, query.length, answer);
      if (verdict === 'drop') return;
      if (verdict === 'truncate') {
        const short = Buffer.alloc(answer.length);
        const length = shared.truncateInto(answer, short);
        out = length > 0 ? short.subarray(0, length) : null;
      }
    }
    if (!out) return;
    const request = new binding.SendWrap();
    const sent = family === 6 ? handle.send6(request, [out], 1, m.port, m.address, false) : handle.send(request, [out], 1, m.port, m.address, false);
    // Queued (0): the buffer must outlive the send.
    if (sent === 0) request.buffer = out;
  };
  const onMessage = (m: ThreadMessage) => {
    if (m.type === 'counts') {
      for (const [tally, n] of m.counts) options.count(tally, n);
      if (m.zones) for (const [tally, n] of readTallies(Buffer.from(m.zones.buffer, m.zones.byteOffset, m.zones.length))) options.count(tally, n);
      return;
    }
    if (m.type !== 'miss') return;
    // Counted here, not read from the shared counter: a thread past the bound adds one there before it takes it back.
    answering += 1;
    peak = Math.max(peak, answering);
    const query = Buffer.from(m.query.buffer, m.query.byteOffset, m.query.length);
    void options
      .answer(query, m.address)
      .then((answered) => {
        if (!answered) return;
        const { entry } = answered;
        if (entry.meta) options.count(entry.meta, 1);
        const { bytes, proven } = options.send(entry, query, m.address);
        sendMiss(bytes, proven, query, m);
      })
      .catch((failure: unknown) => console.error('DNS: a UDP query failed', failure))
      .finally(() => {
        answering -= 1;
        answered += 1;
        Atomics.sub(control, IN_FLIGHT, 1);
      });
  };
  let batched = false;
  try {
    for (let i = 0; i < options.threads; i += 1) {
      const worker = takeThread();
      worker.on('message', onMessage);
      workers.push(worker);
      const channel = new MessageChannel();
      ports.set(worker, channel.port1);
      const attached = next(worker, 'attached');
      worker.postMessage(
        { type: 'attach', fd: handle.fd, family, control: controlBuffer, table: options.cache.table, rrl: rrlBuffer, rrlPerSecond: options.rrlPerSecond, batched: options.batched ?? true, port: channel.port2, cookieMaster: options.cookieMaster, missBound },
        [channel.port2],
      );
      const { error: openError, batched: threadBatched } = await attached;
      batched = threadBatched === true;
      if (openError !== 0) throw new Error(`A UDP thread could not read the socket: ${getSystemErrorName(openError)}`);
    }
  } catch (failure) {
    await release();
    throw failure;
  }

  /** An empty datagram to the socket itself: a thread blocked in poll wakes now, not at its timeout (it drops it). */
  const wake = () => {
    const self = options.host === '0.0.0.0' ? '127.0.0.1' : options.host === '::' ? '::1' : options.host;
    const request = new binding.SendWrap();
    const empty = Buffer.alloc(0);
    if ((family === 6 ? handle.send6(request, [empty], 1, options.port, self, false) : handle.send(request, [empty], 1, options.port, self, false)) === 0) request.buffer = empty;
  };

  async function release() {
    // Each thread stops reading (a batched one leaves poll within its timeout) and sends its last counts before the
    // socket is closed.
    Atomics.store(control, STOP, 1);
    await Promise.all(
      workers.map(async (worker) => {
        const detached = next(worker, 'detached').then(() => true);
        ports.get(worker)?.postMessage({ type: 'detach' });
        wake();
        const stopWaiting = new AbortController();
        const exited = once(worker, 'exit', { signal: stopWaiting.signal }).then(() => false, () => false);
        const alive = await Promise.race([detached, exited]).catch(() => false);
        stopWaiting.abort();
        worker.off('message', onMessage);
        ports.get(worker)?.close();
        if (alive) idle.push(worker);
      }),
    );
    ports.clear();
    workers.length = 0;
    await new Promise<void>((done) => handle.close(() => done()));
  }
  let closed: Promise<void> | null = null;
  return {
    close: () => (closed ??= release()),
    batched,
    misses: () => ({ bound: missBound, inFlight: Atomics.load(control, IN_FLIGHT), peak, dropped: Atomics.load(control, DROPPED), answered }),
  };
}
