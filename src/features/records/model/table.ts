import { isManaged, LISTED_TYPES, type DnsRecord, type ListedType } from '#core/wire/dns.ts';
import { canonicalKey, fullName, toAbsolute } from '#core/dns/names.ts';
import { ttlInWords } from '#core/dns/ttl.ts';
import { hasTag } from '#core/dns/record-notes.ts';
import type { Draft } from './change-set.ts';
import { contentInWords } from './describe.ts';

/** The id prefix of a row shown while its write is on the way (api/optimistic.ts puts it there). */
export const PENDING_PREFIX = 'pending:';

/**
 * A table row: the record plus what the table shows and searches. A row is its own list item, so the ungrouped
 * list is the sorted rows as they are, not 100,000 wrappers made again on every keystroke.
 */
export interface Row extends RowItem {
  record: DnsRecord;
  id: string;
  name: string;
  fqdn: string;
  type: ListedType;
  content: string;
  ttl: number;
  ttlWords: string;
  managed: boolean;
  /** Whether one lowercase search word appears in the name, the full name, the record data, the comment or a tag; `tag:x` names a tag (tagFilter). */
  matches(word: string): boolean;
  /** The name in DNS order (labels from the right, apex first), computed once so sorting 100,000 rows stays cheap. */
  nameKey: string;
  /** A pending change of the draft (or an optimistic write) on this row, for the table's marks. */
  pending?: 'add' | 'change' | 'remove';
}

/** A name in DNS order (labels from the right, apex first); a name of one label is its own key, made at no cost. */
const nameKeyOf = (name: string) => (name === '@' ? '' : canonicalKey(name));

/** Lowercase, made only when the text has capitals: most names and record data are their own lowercase. */
const lower = (text: string) => (/[A-Z]/.test(text) ? text.toLowerCase() : text);

/**
 * A row whose words are made when first read: the table shows a few dozen rows of a 100,000-record zone, so the
 * first render computes only what sorting by name needs (the name key) and each shown row's words. Search reads the
 * name and data as they are (a lowercase copy only of those with capitals), so a first keystroke in a 100,000-record
 * zone makes no string per row.
 */
class ZoneRow implements Row {
  readonly nameKey: string;
  pending?: 'add' | 'change' | 'remove';
  #fqdn?: string;
  #content?: string;
  #ttlWords?: string;
  #searchName?: string;
  #searchData?: string;
  #searchFqdn?: string;

  constructor(
    readonly record: DnsRecord,
    /** The zone's full name, normalised once per list: fullName normalising it again per row doubled search's set-up. */
    private readonly apex: string,
  ) {
    this.nameKey = nameKeyOf(record.name);
  }
  get kind() {
    return 'row' as const;
  }
  get row() {
    return this;
  }
  get id() {
    return this.record.id;
  }
  get name() {
    return this.record.name;
  }
  get type() {
    return this.record.type;
  }
  get ttl() {
    return this.record.ttl;
  }
  get managed() {
    return isManaged(this.record);
  }
  get fqdn() {
    return (this.#fqdn ??= toAbsolute(this.name === '' ? '@' : this.name, this.apex));
  }
  get content() {
    return (this.#content ??= contentInWords(this.type, this.record.rdata));
  }
  get ttlWords() {
    return (this.#ttlWords ??= ttlInWords(this.ttl));
  }
  matches(word: string): boolean {
    const tag = tagFilter(word);
    if (tag !== null) return hasTag(this.record.tags, tag);
    if ((this.#searchName ??= lower(this.name)).includes(word) || (this.#searchData ??= lower(this.record.rdata)).includes(word)) return true;
    if (this.record.comment && lower(this.record.comment).includes(word)) return true;
    if (this.record.tags?.some((t) => lower(t).includes(word))) return true;
    // In the full name but not the name: inside the zone's name (the same for every row), or, for a word with a dot,
    // across the dot that joins them.
    return word.includes('.') ? (this.#searchFqdn ??= lower(this.fqdn)).includes(word) : this.apex.includes(word);
  }
}

/** The tag a search word names (`tag:prod` → `prod`, `tag:env:prod` → `env:prod`), or null for an ordinary word. */
function tagFilter(word: string): string | null {
  return word.startsWith('tag:') && word.length > 4 ? word.slice(4) : null;
}

export function toRow(record: DnsRecord, zoneName: string): Row {
  return new ZoneRow(record, fullName('@', zoneName));
}

/** The zone the rules and plans look at: the stored records, without the rows of writes still on the way. */
export function storedRecords(records: DnsRecord[]): DnsRecord[] {
  return records.filter((r) => !r.id.startsWith(PENDING_PREFIX));
}

/** Every row the table can show, marked with what a write on the way or the change set will do to it. */
export function markedRows(records: DnsRecord[], draft: Pick<Draft, 'updates' | 'deletes'>, zoneName: string): Row[] {
  const updated = new Set(draft.updates.map((u) => u.id));
  const deleted = new Set(draft.deletes.map((d) => d.id));
  const apex = fullName('@', zoneName);
  return records.map((record) => {
    const row: Row = new ZoneRow(record, apex);
    if (record.id.startsWith(PENDING_PREFIX)) row.pending = 'add';
    else if (deleted.has(record.id)) row.pending = 'remove';
    else if (updated.has(record.id)) row.pending = 'change';
    return row;
  });
}

/** The record types present, in the registry's order: the type filter offers only these. */
export function typesIn(rows: ReadonlyArray<{ type: ListedType }>): ListedType[] {
  const present = new Set<ListedType>();
  for (const row of rows) present.add(row.type);
  return LISTED_TYPES.filter((t) => present.has(t));
}

/** The next view after a click on a column header: a new column sorts ascending, the same one flips. */
export function sortedBy(view: TableView, key: SortKey): TableView {
  return { ...view, sort: key, direction: view.sort === key && view.direction === 'asc' ? 'desc' : 'asc' };
}

export type SortKey = 'name' | 'type' | 'content' | 'ttl';
export interface TableView {
  query: string;
  type: ListedType | 'all';
  sort: SortKey;
  direction: 'asc' | 'desc';
  groupByType: boolean;
}

export const DEFAULT_VIEW: TableView = { query: '', type: 'all', sort: 'name', direction: 'asc', groupByType: false };

/** Plain code-unit order: names and record data are ASCII, and Intl collation is too slow for 10,000 rows. */
function order(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** '@' first, then names in DNS order (by labels from the right), so www sits near blog.www. */
const nameOrder = (a: Row, b: Row) => order(a.nameKey, b.nameKey);

const compare: Record<SortKey, (a: Row, b: Row) => number> = {
  name: (a, b) => nameOrder(a, b) || order(a.type, b.type) || order(a.content, b.content),
  type: (a, b) => order(a.type, b.type) || nameOrder(a, b),
  content: (a, b) => order(a.content, b.content) || nameOrder(a, b),
  ttl: (a, b) => a.ttl - b.ttl || nameOrder(a, b),
};

export function sortRows(rows: Row[], sort: SortKey, direction: 'asc' | 'desc'): Row[] {
  const by = compare[sort];
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => sign * by(a, b));
}

/**
 * The records that come first in the table's default order (by name), at least `head` of them when the zone has that
 * many: what a large zone's first screen shows, picked by name key alone with no row made for the other records.
 * Every record sharing the last kept name is kept too, so sorting these rows puts their first `head` exactly where
 * sorting the whole zone does. Null when names repeat so much that picking would cost more than sorting.
 */
export function firstByName(records: DnsRecord[], head: number): DnsRecord[] | null {
  const keys: string[] = [];
  const kept: DnsRecord[] = [];
  for (const record of records) {
    const key = nameKeyOf(record.name);
    if (kept.length >= head && key > keys[head - 1]) continue;
    let low = 0;
    let high = keys.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (keys[mid] <= key) low = mid + 1;
      else high = mid;
    }
    keys.splice(low, 0, key);
    kept.splice(low, 0, record);
    while (kept.length > head && keys[kept.length - 1] > keys[head - 1]) {
      keys.pop();
      kept.pop();
    }
    if (kept.length > head + 1000) return null;
  }
  return kept;
}

/**
 * Every search word must appear in the name or the content; a type filter narrows further. When every row matches,
 * the answer is the list given, not a copy: what the table works out from it (selection, groups) is kept as it is.
 */
export function filterRows(rows: Row[], query: string, type: ListedType | 'all'): Row[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0 && type === 'all') return rows;
  const kept = rows.filter((row) => (type === 'all' || row.type === type) && words.every((w) => row.matches(w)));
  return kept.length === rows.length ? rows : kept;
}

/** Answers of the same rows kept for going back (Backspace): each query typed on the way to the current one. */
const REMEMBERED_QUERIES = 32;

/**
 * filterRows that remembers its answers: a query that extends the last one (a keystroke at the end) can only
 * match rows the last one matched, so it searches those instead of the whole zone. Every word of the shorter query
 * is a whole word of the longer or a prefix of its last word, so any row the longer matches, the shorter matched.
 * A query answered before on the same rows (the last REMEMBERED_QUERIES of them) is not searched again.
 */
export function narrowingFilter(): (rows: Row[], query: string, type: ListedType | 'all') => Row[] {
  let last: { rows: Row[]; query: string; type: ListedType | 'all'; result: Row[] } | undefined;
  // Deleting a character goes back to a query typed before; new rows (a write, another zone) forget them all.
  let remembered = new Map<string, Row[]>();
  let rememberedFor: Row[] | undefined;
  return (rows, query, type) => {
    if (rememberedFor !== rows) {
      remembered = new Map();
      rememberedFor = rows;
    }
    const key = `${type} ${query.trim().toLowerCase()}`;
    const known = remembered.get(key);
    if (known) {
      last = { rows, query, type, result: known };
      return known;
    }
    // A tag filter matches whole tags: `tag:prod` is no narrowing of `tag:pro`.
    const lastWord = last?.query.trim().split(/\s+/).at(-1) ?? '';
    const narrows = last !== undefined && last.rows === rows && last.type === type && query.toLowerCase().startsWith(last.query.toLowerCase()) && !lastWord.toLowerCase().startsWith('tag:');
    const result = filterRows(narrows ? last!.result : rows, query, type);
    last = { rows, query, type, result };
    remembered.set(key, result);
    if (remembered.size > REMEMBERED_QUERIES) remembered.delete(remembered.keys().next().value as string);
    return result;
  };
}

type RowItem = { kind: 'row'; row: Row };
export type ListItem = { kind: 'group'; type: ListedType; count: number } | RowItem;

/** Sorted rows, grouped under a heading per type when asked. */
export function listItems(sorted: Row[], groupByType: boolean): ListItem[] {
  if (!groupByType) return sorted;
  const groups = new Map<ListedType, Row[]>();
  for (const row of sorted) {
    const group = groups.get(row.type);
    if (group) group.push(row);
    else groups.set(row.type, [row]);
  }
  const items: ListItem[] = [];
  for (const type of [...groups.keys()].sort()) {
    const rows = groups.get(type) ?? [];
    items.push({ kind: 'group', type, count: rows.length });
    for (const row of rows) items.push(row);
  }
  return items;
}
