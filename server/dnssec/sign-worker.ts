/**
 * A worker thread that signs a whole zone (server/dnssec/sign-in-worker.ts starts it): the zone's sets come in
 * chunks, the signed zone goes back packed in one transferred buffer, so neither side copies 200,000 small arrays.
 */
import { createPrivateKey } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { signZone, type SignableSet, type SignatureStore } from './sign-zone.ts';

export interface SignJob {
  zone: string;
  keyTag: number;
  dnskey: Uint8Array;
  /** The private key as PKCS#8 DER: a KeyObject does not cross to a worker as such. */
  pkcs8: Uint8Array;
  epoch: number;
  nsecTtl: number;
}

/** `known`: stored signatures, packed as per signature 32 bytes of digest, u16 length, the RRSIG. */
export type ToWorker = { job: SignJob } | { nodes: Array<[string, SignableSet[]]> } | { known: ArrayBuffer } | { end: true };

/**
 * Lists of names travel as UTF-8 joined by '\n' in transferred buffers: as strings they were copied on arrival and
 * split in one go on the service's event loop (200,000 owners: about 100 ms with nothing else answered).
 */
export interface Packed {
  /** Chain owners and their canonical keys. */
  chain: ArrayBuffer;
  chainKeys: ArrayBuffer;
  cuts: string[];
  made: number;
  /** Per chain owner: the NSEC (u16 length, data), the RRSIG count (u16), per RRSIG (u16 type, u16 length, data). */
  buffer: ArrayBuffer;
  /** The signatures made (not found in `known`): their owners, and per one u16 type, 32 bytes of digest. */
  freshOwners: ArrayBuffer;
  fresh: ArrayBuffer;
}

const lines = (names: string[]): ArrayBuffer => new TextEncoder().encode(names.join('\n')).buffer as ArrayBuffer;

let job: SignJob | null = null;
const nodes = new Map<string, Map<string, SignableSet>>();
const store: SignatureStore = { known: new Map(), fresh: [] };

parentPort?.on('message', (message: ToWorker) => {
  if ('job' in message) job = message.job;
  else if ('nodes' in message) for (const [rel, sets] of message.nodes) nodes.set(rel, new Map(sets.map((s) => [s.type, s])));
  else if ('known' in message) {
    const bytes = new Uint8Array(message.known);
    for (let at = 0; at < bytes.length; ) {
      const length = (bytes[at + 32] << 8) | bytes[at + 33];
      store.known?.set(Buffer.from(bytes.subarray(at, at + 32)).toString('base64'), bytes.subarray(at + 34, at + 34 + length));
      at += 34 + length;
    }
  }
  else if (job) {
    const privateKey = createPrivateKey({ key: Buffer.from(job.pkcs8), format: 'der', type: 'pkcs8' });
    const signed = signZone(job.zone, nodes, { keyTag: job.keyTag, algorithm: job.dnskey[3], dnskey: job.dnskey, privateKey }, { epoch: new Date(job.epoch), nsecTtl: job.nsecTtl, store });
    let size = 0;
    for (const rel of signed.chain) {
      size += 4 + (signed.nsec.get(rel) as Uint8Array).length;
      for (const rrsig of (signed.rrsigs.get(rel) as Map<number, Uint8Array>).values()) size += 4 + rrsig.length;
    }
    const bytes = new Uint8Array(size);
    const view = new DataView(bytes.buffer);
    let at = 0;
    const put = (data: Uint8Array) => {
      view.setUint16(at, data.length);
      bytes.set(data, at + 2);
      at += 2 + data.length;
    };
    for (const rel of signed.chain) {
      put(signed.nsec.get(rel) as Uint8Array);
      const rrsigs = signed.rrsigs.get(rel) as Map<number, Uint8Array>;
      view.setUint16(at, rrsigs.size);
      at += 2;
      for (const [type, rrsig] of rrsigs) {
        view.setUint16(at, type);
        at += 2;
        put(rrsig);
      }
    }
    const fresh = new Uint8Array(store.fresh.length * 34);
    store.fresh.forEach((f, i) => {
      fresh[i * 34] = f.type >> 8;
      fresh[i * 34 + 1] = f.type & 255;
      fresh.set(f.digest, i * 34 + 2);
    });
    const packed: Packed = {
      chain: lines(signed.chain), chainKeys: lines(signed.chainKeys), cuts: [...signed.cuts], made: signed.made, buffer: bytes.buffer,
      freshOwners: lines(store.fresh.map((f) => f.rel)), fresh: fresh.buffer,
    };
    parentPort?.postMessage(packed, [packed.chain, packed.chainKeys, packed.freshOwners, bytes.buffer, fresh.buffer]);
  }
});
