/**
 * Encoded answers kept by question, so a repeated question is answered without parsing or resolving it again, over
 * UDP (by every UDP thread, see udp-threads.ts) and DoH alike. The key is the whole query after its ID — header flags
 * (RD, CD), the question as sent (its letter case included, which the answer echoes) and the EDNS record (buffer
 * size, DO bit) — so two queries share an answer only when the answer would be the same bytes; the ID is patched in
 * on the way out. Each entry holds the full answer (DoH) and the one fitted to the client's UDP size.
 *
 * The entries live in one table in shared memory (answer-table.cjs, written by answer-table-writer.ts), bounded in
 * bytes (DNS_CACHE_MB), which the main thread writes and every UDP thread reads directly: no copy per thread, and
 * the least recently asked answers go first when it is full.
 *
 * Dropped per zone: a zone's new serial drops the answers of that zone (and of any zone above or below it, whose
 * names it may take over or give up), and the answers that belong to no zone (REFUSED, FORMERR), which a new zone
 * may turn into answers; everything else stays. An answer computed while any change arrived is not kept.
 */
import { createRequire } from 'node:module';
import { table } from './answer-table.ts';
import { answerTableWriter } from './answer-table-writer.ts';
import { cookies, EDNS_UDP_SIZE } from './edns.ts';
import { threadZoneKey } from './thread-zone.ts';

/** The shared answer table's share of DNS_CACHE_MB: three quarters (the rest is the main thread's snapshots and forms). */
export const packetCacheBytes = (mb: number) => Math.floor((mb * 1024 * 1024 * 3) / 4);
/** The table's size when none is given: DNS_CACHE_MB's default's share. */
const DEFAULT_CACHE_BYTES = packetCacheBytes(96);
const OPCODE_MASK = 0x78;
/** Room a cookie takes in an answer, and the Z bit a key without its cookie carries (server.ts cacheKeyOf). */
const COOKIE_ROOM = cookies.OPTION_SIZE;
const FLAG_Z = 0x40;

/** The reader of zones compiled for the UDP threads (thread-zone.cjs), which the main thread reads as they do. */
const forms = createRequire(import.meta.url)('./thread-zone.cjs') as {
  zoneReader(view: unknown): object;
  answerFromZone(z: object, q: Buffer, n: number, out: Buffer, cookies: boolean, cookieLength: number): number;
  tallyOfLast(z: object): Buffer;
};
/** Entries the main thread keeps decoded (a few MiB at most). */
const DECODED_KEPT = 4096;

export interface CachedAnswer<M> {
  /** The answer as sent over UDP: truncated (TC) when larger than the query's EDNS size allows. */
  udp: Buffer;
  /** The whole answer (DoH, and the source of DoH's max-age). */
  full: Buffer;
  /** The zone it was answered from; null for answers of no zone (REFUSED, FORMERR, NOTIMP). */
  zone: string | null;
  meta?: M;
}

export interface PacketCache<M = undefined> {
  /** The entry kept for `query` (a copy out of the table: do not change it), or undefined; its answers carry the ID of the query that filled it (see `withId`). */
  lookup(query: Buffer): CachedAnswer<M> | undefined;
  /** A token to pass to `set`: the cache's generation when the answer started to be computed. */
  begin(): number;
  set(query: Buffer, entry: CachedAnswer<M>, token: number): void;
  /**
   * Keeps `zone` compiled for the UDP threads (thread-zone.ts) unless a fresh form of it is kept already; `compile`
   * is asked only then, and answers null for a zone the threads cannot answer whole. `token` as for `set`. Called
   * before `set`, which keeps nothing the form answers.
   */
  keepZone(zone: string, compile: () => Buffer | null, token: number): void;
  /** Drops the answers a change of `zone` may make stale (null: every answer, e.g. when the subscription is lost). */
  drop(zone: string | null): void;
  /** The shared table the UDP threads read (answer-table.cjs). */
  readonly table: SharedArrayBuffer;
  /** Entries in the table (stale ones until evicted), and its bytes used and available. */
  stats(): { entries: number; ringBytes: number; arenaBytes: number };
}

/** Only plain queries are kept: opcode QUERY, one question, no TSIG (a signed answer is unique to its request). */
function cacheable(query: Buffer): boolean {
  if (query.length < 17 || query.length > 512) return false;
  if ((query[2] & 0x80) !== 0 || (query[2] & OPCODE_MASK) !== 0) return false;
  // QDCOUNT 1, no answers or authorities, at most the OPT record as additional.
  return query.readUInt16BE(4) === 1 && query.readUInt16BE(6) === 0 && query.readUInt16BE(8) === 0 && query.readUInt16BE(10) <= 1 && !hasTsig(query);
}

/** A TSIG record is the last additional; its type 250 follows its owner name. Cheap check: look for an additional that is not OPT. */
function hasTsig(query: Buffer): boolean {
  if (query.readUInt16BE(10) === 0) return false;
  // The OPT record is ". OPT": a zero byte then type 41, and it sits at the end, 11 bytes plus its options.
  let offset = 12;
  while (offset < query.length && query[offset] !== 0) offset += query[offset] + 1;
  offset += 5; // root label, qtype, qclass
  if (offset + 3 > query.length) return true;
  return !(query[offset] === 0 && query.readUInt16BE(offset + 1) === 41);
}

/** A copy of a kept answer with the ID of `query`. */
export function withId(answer: Buffer, query: Buffer): Buffer {
  const out = Buffer.from(answer);
  out[0] = query[0];
  out[1] = query[1];
  return out;
}

/**
 * `everyChange`: zones whose answers go with any zone's change, as answers of no zone do (the catalog zone, which
 * lists them all). `bytes`: the table's size, everything included.
 */
export function packetCache<M = undefined>(everyChange: readonly string[] = [], bytes = DEFAULT_CACHE_BYTES): PacketCache<M> {
  const writer = answerTableWriter(bytes);
  const view = writer.view;
  let generation = 0;
  /**
   * The entries the main thread read lately, by id (an id is never reused for other bytes), so its hot questions
   * (DoH, DNS_UDP_THREADS=0) are not copied and parsed at every hit; found in the table first, so never stale.
   */
  let decoded = new Map<number, CachedAnswer<M>>();
  const formReader = forms.zoneReader(view);
  const formAnswer = Buffer.alloc(EDNS_UDP_SIZE + COOKIE_ROOM);
  /**
   * The answer to a key written from its zone's compiled form, as a thread writes it (a key never holds a cookie:
   * see server.ts cacheKeyOf); its length, or -1.
   */
  const fromForm = (query: Buffer) => forms.answerFromZone(formReader, query, query.length, formAnswer, false, (query[3] & FLAG_Z) !== 0 ? COOKIE_ROOM : 0);
  const decode = (): CachedAnswer<M> => {
    const udp = Buffer.from(view.bytes.subarray(view.udpAt, view.udpAt + view.udpLength));
    const full = view.fullAt === view.udpAt ? udp : Buffer.from(view.bytes.subarray(view.fullAt, view.fullAt + view.fullLength));
    if (view.tallyLength === 0) return { udp, full, zone: null };
    const [zone, meta] = JSON.parse(view.bytes.toString('utf8', view.tallyAt, view.tallyAt + view.tallyLength)) as [string | null, M | null];
    return meta === null ? { udp, full, zone } : { udp, full, zone, meta };
  };
  return {
    lookup(query) {
      // The main thread is the only writer: what it reads here cannot change under it, no check of the id after.
      if (!cacheable(query)) return undefined;
      if (!table.find(view, query, query.length)) {
        // What a zone's form answers is not kept twice (see `set`): the main thread writes it from there too.
        const length = fromForm(query);
        if (length < 0) return undefined;
        const udp = Buffer.from(formAnswer.subarray(0, length));
        const [zone, meta] = JSON.parse(forms.tallyOfLast(formReader).toString()) as [string, M];
        return { udp, full: udp, zone, meta };
      }
      table.markAsked(view);
      let entry = decoded.get(view.id);
      if (entry === undefined) {
        if (decoded.size >= DECODED_KEPT) decoded = new Map();
        decoded.set(view.id, (entry = decode()));
      }
      return entry;
    },
    begin: () => generation,
    set(query, entry, token) {
      // A SERVFAIL is a passing failure, never kept.
      if (token !== generation || (entry.full[3] & 0xf) === 2 || !cacheable(query)) return;
      // A question its zone's compiled form answers is answered from there (by the threads too): the form holds
      // every question of the zone in a few hundred bytes, where each kept question takes ~250.
      if (fromForm(query) >= 0) return;
      const zone = entry.zone !== null && everyChange.includes(entry.zone) ? null : entry.zone;
      // What a hit is counted as (the UDP threads read it back to count their hits): the zone, and the meta.
      const tally = entry.zone === null && entry.meta == null ? null : Buffer.from(JSON.stringify([entry.zone, entry.meta ?? null]));
      writer.put(query, entry.udp, entry.full, tally, zone);
    },
    keepZone(zone, compile, token) {
      if (token !== generation || everyChange.includes(zone)) return;
      const key = threadZoneKey(zone);
      if (table.find(view, key, key.length)) return;
      const form = compile();
      if (form) writer.put(key, form, form, null, zone);
    },
    drop(zone) {
      generation += 1;
      writer.drop(zone);
    },
    table: writer.buffer,
    stats: () => writer.stats(),
  };
}
