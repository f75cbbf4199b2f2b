/**
 * Encoded answers kept by question, so a repeated question is answered without parsing or resolving it again, over
 * UDP (by every UDP thread, see udp-threads.ts) and DoH alike. The key is the whole query after its ID — header flags
 * (RD, CD), the question as sent (its letter case included, which the answer echoes) and the EDNS record (buffer
 * size, DO bit) — so two queries share an answer only when the answer would be the same bytes; the ID is patched in
 * on the way out. Each entry holds the full answer (DoH) and the one fitted to the client's UDP size.
 *
 * Dropped per zone: a zone's new serial drops the answers of that zone (and of any zone above or below it, whose
 * names it may take over or give up), and the answers that belong to no zone (REFUSED, FORMERR), which a new zone
 * may turn into answers; everything else stays. An answer computed while any change arrived is not kept.
 */
const MAX_ENTRIES = 20_000;
const OPCODE_MASK = 0x78;

export interface CachedAnswer<M> {
  /** The answer as sent over UDP: truncated (TC) when larger than the query's EDNS size allows. */
  udp: Buffer;
  /** The whole answer (DoH, and the source of `maxAge`). */
  full: Buffer;
  /** The zone it was answered from; null for answers of no zone (REFUSED, FORMERR, NOTIMP). */
  zone: string | null;
  meta?: M;
  /** DoH's Cache-Control max-age, worked out at the first DoH hit. */
  maxAge?: number;
}

export interface PacketCache<M = undefined> {
  /** The entry kept for `query`, or undefined; its answers carry the ID of the query that filled it (see `withId`). */
  lookup(query: Buffer): CachedAnswer<M> | undefined;
  /** A token to pass to `set`: the cache's generation when the answer started to be computed. */
  begin(): number;
  set(query: Buffer, entry: CachedAnswer<M>, token: number): void;
  /** Drops the answers a change of `zone` may make stale (null: every answer, e.g. when the subscription is lost). */
  drop(zone: string | null): void;
  /** Tells `events` of every entry kept and every drop from now on (the UDP threads' copies); answers how to stop. */
  listen(events: PacketCacheEvents<M>): () => void;
  readonly size: number;
}

interface PacketCacheEvents<M> {
  /** An entry was kept (the UDP threads keep a copy). */
  onSet?(key: Buffer, entry: CachedAnswer<M>): void;
  /** Answers were dropped: called before the entries go, with the zone (null: all). */
  onDrop?(zone: string | null): void;
}

/** Only plain queries are kept: opcode QUERY, one question, no TSIG (a signed answer is unique to its request). */
export function cacheable(query: Buffer): boolean {
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

/** Whether a change of `changed` may change the answers of `zone`: the same zone, or one above or below it. */
function touches(changed: string, zone: string): boolean {
  return zone === changed || zone.endsWith(`.${changed}`) || changed.endsWith(`.${zone}`);
}

/** A copy of a kept answer with the ID of `query`. */
export function withId(answer: Buffer, query: Buffer): Buffer {
  const out = Buffer.from(answer);
  out[0] = query[0];
  out[1] = query[1];
  return out;
}

/** `everyChange`: zones whose answers go with any zone's change, as answers of no zone do (the catalog zone, which lists them all). */
export function packetCache<M = undefined>(everyChange: readonly string[] = []): PacketCache<M> {
  const listeners = new Set<PacketCacheEvents<M>>();
  let entries = new Map<string, CachedAnswer<M>>();
  /** The keys of each zone's entries ('' for answers of no zone), so a zone's are dropped without a scan. */
  let keysByZone = new Map<string, Set<string>>();
  let generation = 0;
  const keyOf = (query: Buffer) => query.toString('latin1', 2);
  return {
    lookup(query) {
      return cacheable(query) ? entries.get(keyOf(query)) : undefined;
    },
    begin: () => generation,
    set(query, entry, token) {
      // A SERVFAIL is a passing failure, never kept.
      if (token !== generation || (entry.full[3] & 0xf) === 2 || !cacheable(query)) return;
      if (entries.size >= MAX_ENTRIES) this.drop(null);
      const key = keyOf(query);
      if (entry.zone !== null && everyChange.includes(entry.zone)) entry.zone = null;
      const zone = entry.zone ?? '';
      let keys = keysByZone.get(zone);
      if (!keys) keysByZone.set(zone, (keys = new Set()));
      keys.add(key);
      entries.set(key, entry);
      for (const l of listeners) l.onSet?.(query.subarray(2), entry);
    },
    drop(zone) {
      generation += 1;
      for (const l of listeners) l.onDrop?.(zone);
      if (zone === null) {
        entries = new Map();
        keysByZone = new Map();
        return;
      }
      for (const [kept, keys] of keysByZone) {
        if (kept !== '' && !touches(zone, kept)) continue;
        for (const key of keys) entries.delete(key);
        keysByZone.delete(kept);
      }
    },
    listen(events) {
      listeners.add(events);
      return () => listeners.delete(events);
    },
    get size() {
      return entries.size;
    },
  };
}
