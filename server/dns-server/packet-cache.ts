/**
 * Encoded UDP answers kept by question, so a repeated question is answered without parsing or resolving it again.
 * The key is the whole query after its ID — header flags (RD, CD), the question as sent (its letter case
 * included, which the answer echoes) and the EDNS record (buffer size, DO bit) — so two queries share an answer only
 * when the answer would be the same bytes; the ID is patched in on the way out. Every entry is dropped when any
 * zone changes (the announcement of a new serial), and an answer computed while a change arrived is not kept.
 */
const MAX_ENTRIES = 20_000;
const OPCODE_MASK = 0x78;

export interface PacketCache<M = undefined> {
  /** The cached answer to `query` with the query's ID, and what was kept beside it (how it is counted), or undefined. */
  get(query: Buffer): { answer: Buffer; meta?: M } | undefined;
  /** A token to pass to `set`: the cache's generation when the answer started to be computed. */
  begin(): number;
  set(query: Buffer, answer: Buffer, token: number, meta?: M): void;
  /** Drops every entry: called when a zone's serial changes. */
  drop(): void;
  readonly size: number;
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

export function packetCache<M = undefined>(): PacketCache<M> {
  let entries = new Map<string, { answer: Buffer; meta?: M }>();
  let generation = 0;
  const keyOf = (query: Buffer) => query.toString('latin1', 2);
  return {
    get(query) {
      if (!cacheable(query)) return undefined;
      const entry = entries.get(keyOf(query));
      if (!entry) return undefined;
      const out = Buffer.from(entry.answer);
      out[0] = query[0];
      out[1] = query[1];
      return { answer: out, meta: entry.meta };
    },
    begin: () => generation,
    set(query, answer, token, meta) {
      // A SERVFAIL is a passing failure, never kept.
      if (token !== generation || (answer[3] & 0xf) === 2 || !cacheable(query)) return;
      if (entries.size >= MAX_ENTRIES) entries = new Map();
      entries.set(keyOf(query), { answer, meta });
    },
    drop() {
      generation += 1;
      entries = new Map();
    },
    get size() {
      return entries.size;
    },
  };
}
