/**
 * UDP answered by worker threads (udp-thread.cjs) that all read one socket, bound here on the main thread: one Node
 * thread spends most of each query in the recvmsg, the sendmsg and the callback between them, so the answers from
 * the packet cache are spread over threads. The main thread keeps the zones and the packet cache and resolves what
 * the threads do not hold: a thread sends it the query, it answers through the cache (so the entry reaches every
 * thread) and hands the answer back for the thread to send through its RRL. See docs/service/dns.md.
 */
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { isIP } from 'node:net';
import { getSystemErrorName } from 'node:util';
import { cacheable, withId, type CachedAnswer, type PacketCache } from './packet-cache.ts';
import type { Tally } from './query-counts.ts';

interface RawUdp {
  bind(address: string, port: number, flags: number): number;
  bind6(address: string, port: number, flags: number): number;
  readonly fd: number;
  close(done?: () => void): void;
}

/** Node's own UDP handle (node:dgram's), which can share its descriptor with a worker; null where Node has none. */
function udpBinding(): { UDP: new () => RawUdp } | null {
  try {
    return (process as unknown as { binding(name: string): { UDP: new () => RawUdp } }).binding('udp_wrap');
  } catch {
    return null;
  }
}

type ThreadMessage =
  | { type: 'attached'; error: number }
  | { type: 'detached' }
  | { type: 'miss'; query: Uint8Array; port: number; address: string }
  | { type: 'counts'; counts: Array<[Tally, number]> };

/** Threads kept for the process: a thread never closes a descriptor it shares (see udp-thread.cjs), so it is reused, never ended. */
const idle: Worker[] = [];
const THREAD_FILE = fileURLToPath(new URL('./udp-thread.cjs', import.meta.url));
const RRL_SLOTS = 1 << 16;

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
  /** Answers a query a thread did not hold, through the cache; null when there is nothing to send. */
  answer(query: Buffer): Promise<{ entry: CachedAnswer<Tally | null>; hit: boolean } | null>;
  count(tally: Tally, n: number): void;
}

/** Binds UDP on `host`:`port` and answers it from `threads` threads; null where this Node cannot share the socket (then dgram on the main thread). */
export async function startUdpThreads(options: UdpThreadsOptions): Promise<{ close(): Promise<void> } | null> {
  const binding = udpBinding();
  const family = isIP(options.host);
  if (!binding || options.threads < 1 || family === 0) return null;
  const handle = new binding.UDP();
  const error = family === 6 ? handle.bind6(options.host, options.port, 0) : handle.bind(options.host, options.port, 0);
  if (error !== 0) {
    handle.close();
    throw Object.assign(new Error(`bind ${getSystemErrorName(error)} ${options.host}:${options.port}`), { code: getSystemErrorName(error) });
  }
  const epochBuffer = new SharedArrayBuffer(4);
  const epoch = new Int32Array(epochBuffer);
  const rrl = options.rrlPerSecond > 0 ? new SharedArrayBuffer(RRL_SLOTS * 3 * 4) : null;
  const workers: Worker[] = [];
  const listeners = new Map<Worker, (m: ThreadMessage) => void>();
  const setOf = (key: Buffer, entry: CachedAnswer<Tally | null>) => ({ key, answer: entry.udp, zone: entry.zone, tally: entry.meta ?? null });
  const stopListening = options.cache.listen({
    onSet: (key, entry) => {
      for (const w of workers) w.postMessage({ type: 'set', ...setOf(key, entry) });
    },
    onDrop: (zone) => {
      // First the shared epoch, so no thread answers from its copy from this moment until it has read the drop.
      const now = Atomics.add(epoch, 0, 1) + 1;
      for (const w of workers) w.postMessage({ type: 'drop', zone, epoch: now });
    },
  });
  const onMessage = (worker: Worker) => (m: ThreadMessage) => {
    if (m.type === 'counts') {
      for (const [tally, n] of m.counts) options.count(tally, n);
      return;
    }
    if (m.type !== 'miss') return;
    const query = Buffer.from(m.query.buffer, m.query.byteOffset, m.query.length);
    void options
      .answer(query)
      .then((answered) => {
        if (!answered) return;
        const { entry, hit } = answered;
        if (entry.meta) options.count(entry.meta, 1);
        // Answered from the main thread's cache: that thread lacked the entry (its copy was dropped), so it gets it too.
        const set = hit && cacheable(query) ? setOf(query.subarray(2), entry) : undefined;
        worker.postMessage({ type: 'reply', answer: withId(entry.udp, query), query, port: m.port, address: m.address, set });
      })
      .catch((failure: unknown) => console.error('DNS: a UDP query failed', failure));
  };
  try {
    for (let i = 0; i < options.threads; i += 1) {
      const worker = takeThread();
      const listener = onMessage(worker);
      listeners.set(worker, listener);
      worker.on('message', listener);
      workers.push(worker);
      const attached = next(worker, 'attached');
      worker.postMessage({ type: 'attach', fd: handle.fd, family, epoch: epochBuffer, rrl, rrlPerSecond: options.rrlPerSecond });
      const { error: openError } = await attached;
      if (openError !== 0) throw new Error(`A UDP thread could not read the socket: ${getSystemErrorName(openError)}`);
    }
  } catch (failure) {
    await release();
    throw failure;
  }

  async function release() {
    stopListening();
    // Each thread stops reading and sends its last counts before the socket is closed.
    await Promise.all(
      workers.map(async (worker) => {
        const detached = next(worker, 'detached').then(() => true);
        worker.postMessage({ type: 'detach' });
        const stopWaiting = new AbortController();
        const exited = once(worker, 'exit', { signal: stopWaiting.signal }).then(() => false, () => false);
        const alive = await Promise.race([detached, exited]).catch(() => false);
        stopWaiting.abort();
        worker.off('message', listeners.get(worker) as (m: ThreadMessage) => void);
        if (alive) idle.push(worker);
      }),
    );
    workers.length = 0;
    await new Promise<void>((done) => handle.close(() => done()));
  }
  let closed: Promise<void> | null = null;
  return { close: () => (closed ??= release()) };
}
