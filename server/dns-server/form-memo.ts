import type { ZoneRow } from './zone-rows.ts';

/** What a kept row costs besides its string: the Map's entry, the key (the zone's name) and the string's header. */
const ENTRY_BYTES = 96;

/** The row's state before its form, as one JSON array: what a build needs besides the records (snapshot-builder.ts). */
type Packed = [serial: number, version: string | null, parked: boolean, forwarding: boolean, expired: boolean, recordCount: number];

/**
 * One character that says whether zones lie below the zone ('1' or '0': read on every name looked up under it), then
 * the state as JSON, a line break and the form.
 */
function pack(row: ZoneRow): string {
  const state: Packed = [Number(row.serial), row.version, row.parked, row.forward_enabled, row.expired, Number(row.record_count)];
  return `${row.has_below ? '1' : '0'}${JSON.stringify(state)}\n${row.form}`;
}

const hasBelow = (text: string) => text[0] === '1';

function unpack(zone: string, text: string): ZoneRow {
  const cut = text.indexOf('\n');
  const [serial, version, parked, forwarding, expired, recordCount] = JSON.parse(text.slice(1, cut)) as Packed;
  const form = text.slice(cut + 1);
  return { name: zone, version, serial, parked, forward_enabled: forwarding, expired, record_count: recordCount, created: '', form, records: null, flattened: null, dnssec_key: null, has_below: hasBelow(text) };
}

/** A string's bytes in V8: one per character while every character fits in one byte, else two. */
const stringBytes = (s: string) => (/[^\0-\xff]/.test(s) ? 2 : 1) * s.length;

/**
 * The rows of small unsigned zones as read for a build (their form, version and state), kept within a budget in bytes,
 * each packed into one string: ~300 bytes for a five-record zone, a tenth of its snapshot. A zone whose snapshot
 * went to make room is built again from here (~25 µs) without a database read, so the snapshots need hold only the
 * zones asked right now and the forms every zone asked lately; a registrar's 100,000 zones fit in ~30 MiB. Kept only
 * while the zone's changes are announced, and forgotten with its snapshot the moment it changes (zone-versions.ts).
 * The least recently asked go first. A signed zone's signatures or a big zone's pages are not here: they keep their
 * snapshots (snapshot-builder.ts).
 */
export function formMemo(budget: number) {
  const kept = new Map<string, string>();
  let used = 0;
  const cost = (zone: string, text: string) => ENTRY_BYTES + stringBytes(zone) + stringBytes(text);
  const remove = (zone: string) => {
    const text = kept.get(zone);
    if (text === undefined) return;
    kept.delete(zone);
    used -= cost(zone, text);
  };
  return {
    /** Keeps the row of a zone that has a form and no key; others are not kept. */
    keep(row: ZoneRow) {
      if (row.form === null || row.dnssec_key !== null) return;
      remove(row.name);
      const text = pack(row);
      const bytes = cost(row.name, text);
      if (bytes > budget) return;
      for (const [oldest] of kept) {
        if (used + bytes <= budget) break;
        remove(oldest);
      }
      kept.set(row.name, text);
      used += bytes;
    },
    /** The zone's row as kept, counted as asked. */
    get(zone: string): ZoneRow | undefined {
      const text = kept.get(zone);
      if (text === undefined) return undefined;
      kept.delete(zone);
      kept.set(zone, text);
      return unpack(zone, text);
    },
    /** Whether a zone of this name is kept (so it is a zone). */
    has: (zone: string) => kept.has(zone),
    /** Whether no zone lies below a zone kept (it holds every name under it); undefined when it is not kept. */
    leaf(zone: string): boolean | undefined {
      const text = kept.get(zone);
      return text === undefined ? undefined : !hasBelow(text);
    },
    delete: remove,
    clear() {
      kept.clear();
      used = 0;
    },
    /** Bytes held, as estimated. */
    get bytes() {
      return used;
    },
    get size() {
      return kept.size;
    },
  };
}
export type FormMemo = ReturnType<typeof formMemo>;
