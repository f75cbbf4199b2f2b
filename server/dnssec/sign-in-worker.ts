import { Worker } from 'node:worker_threads';
import { signedZoneOf, type FreshSignature, type SignableSet, type SignedZone, type SigningKey } from './sign-zone.ts';
import type { Packed, SignJob, ToWorker } from './sign-worker.ts';

/** Names sent to the worker per message, and read back per turn of the event loop: each turn stays a few ms. */
const CHUNK = 1000;

/** Lets the event loop answer whatever waits (DNS, HTTP) between two slices of work. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The worker's plain-JavaScript entry registers tsx there, then loads sign-worker.ts (see sign-worker-boot.mjs). */
const BOOT = new URL('./sign-worker-boot.mjs', import.meta.url);
const MODULE = new URL('./sign-worker.ts', import.meta.url).href;

/**
 * Signs a whole zone on a worker thread, started for this zone and ended when it is done (an idle service holds
 * none). The event loop only hands the sets over and reads the signatures back, a slice per turn, so a zone of
 * 100,000 records signs without holding up the answers for other zones.
 */
export async function signZoneInWorker(
  zone: string,
  nodes: Map<string, Map<string, SignableSet>>,
  key: SigningKey & { pkcs8: Uint8Array },
  options: { epoch: Date; nsecTtl: number },
  /** Signatures stored before (not signed again), and where the ones made are put, for the caller to store. */
  store?: { known: AsyncIterable<Array<{ digest: string; rrsig: Uint8Array }>>; fresh: FreshSignature[] },
): Promise<SignedZone> {
  const worker = new Worker(BOOT, { execArgv: [], workerData: { module: MODULE } });
  try {
    const done = new Promise<Packed>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the signing worker ended (${code}) before it answered`)));
    });
    const job: SignJob = { zone, keyTag: key.keyTag, dnskey: key.dnskey, pkcs8: key.pkcs8, epoch: options.epoch.getTime(), nsecTtl: options.nsecTtl };
    worker.postMessage({ job } satisfies ToWorker);
    let chunk: Array<[string, SignableSet[]]> = [];
    for (const [rel, node] of nodes) {
      chunk.push([rel, [...node.values()]]);
      if (chunk.length === CHUNK) {
        worker.postMessage({ nodes: chunk } satisfies ToWorker);
        chunk = [];
        await breathe();
      }
    }
    worker.postMessage({ nodes: chunk } satisfies ToWorker);
    if (store) {
      for await (const page of store.known) {
        let size = 0;
        for (const k of page) size += 34 + k.rrsig.length;
        const bytes = new Uint8Array(size);
        let at = 0;
        for (const k of page) {
          bytes.set(Buffer.from(k.digest, 'base64'), at);
          bytes[at + 32] = k.rrsig.length >> 8;
          bytes[at + 33] = k.rrsig.length & 255;
          bytes.set(k.rrsig, at + 34);
          at += 34 + k.rrsig.length;
        }
        worker.postMessage({ known: bytes.buffer } satisfies ToWorker, [bytes.buffer]);
      }
    }
    worker.postMessage({ end: true } satisfies ToWorker);
    const packed = await done;
    const signed = await unpack(key, options, packed);
    if (store) {
      const owners = await linesOf(packed.freshOwners);
      const fresh = new Uint8Array(packed.fresh);
      // 200,000 of them at 100,000 records: read a slice per turn, as the signatures are.
      for (let i = 0; i < owners.length; i += 1) {
        if (i % CHUNK === CHUNK - 1) await breathe();
        const rel = owners[i];
        const type = (fresh[i * 34] << 8) | fresh[i * 34 + 1];
        store.fresh.push({ rel, type, digest: Buffer.from(fresh.subarray(i * 34 + 2, i * 34 + 34)), rrsig: signed.rrsigs.get(rel)?.get(type) as Uint8Array });
      }
    }
    return signed;
  } finally {
    void worker.terminate();
  }
}

/** The names of a packed list (UTF-8, joined by '\n'), decoded CHUNK names per turn of the event loop. */
export async function linesOf(buffer: ArrayBuffer): Promise<string[]> {
  const bytes = new Uint8Array(buffer);
  if (bytes.length === 0) return [];
  const decoder = new TextDecoder();
  const names: string[] = [];
  let start = 0;
  let newlines = 0;
  for (let at = 0; at < bytes.length; at += 1) {
    if (bytes[at] !== 10 || ++newlines < CHUNK) continue;
    // CHUNK names end here: decode them, then let the event loop answer before the next slice.
    names.push(...decoder.decode(bytes.subarray(start, at)).split('\n'));
    start = at + 1;
    newlines = 0;
    await breathe();
  }
  names.push(...decoder.decode(bytes.subarray(start)).split('\n'));
  return names;
}

async function unpack(key: SigningKey, options: { epoch: Date; nsecTtl: number }, packed: Packed): Promise<SignedZone> {
  const chain = await linesOf(packed.chain);
  const chainKeys = await linesOf(packed.chainKeys);
  const bytes = new Uint8Array(packed.buffer);
  const view = new DataView(packed.buffer);
  const rrsigs = new Map<string, Map<number, Uint8Array>>();
  const nsec = new Map<string, Uint8Array>();
  let at = 0;
  const take = () => {
    const length = view.getUint16(at);
    const data = bytes.subarray(at + 2, at + 2 + length);
    at += 2 + length;
    return data;
  };
  for (let i = 0; i < chain.length; i += 1) {
    if (i % CHUNK === CHUNK - 1) await breathe();
    nsec.set(chain[i], take());
    const count = view.getUint16(at);
    at += 2;
    const signatures = new Map<number, Uint8Array>();
    for (let j = 0; j < count; j += 1) {
      const type = view.getUint16(at);
      at += 2;
      signatures.set(type, take());
    }
    rrsigs.set(chain[i], signatures);
  }
  return signedZoneOf(key, options, { rrsigs, nsec, chain, chainKeys, cuts: new Set(packed.cuts), made: packed.made });
}
