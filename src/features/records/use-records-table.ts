import { startTransition, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ListedType, DnsRecord } from '#core/wire/dns.ts';
import type { Draft } from './model/change-set.ts';
import { DEFAULT_VIEW, firstByName, listItems, narrowingFilter, markedRows, sortedBy, sortRows, typesIn, type SortKey, type TableView } from './model/table.ts';
import { markSearchInput, markTableRendered } from './perf.ts';

/** More rows than any screen shows at once (the table renders those in view plus a dozen each side). */
const FIRST_SCREEN_ROWS = 200;

/** Whether the table shows what it shows first: no search, every type, by name ascending, not grouped. */
const isDefaultView = (view: TableView) => view.query === '' && view.type === 'all' && view.sort === 'name' && view.direction === 'asc' && !view.groupByType;

/**
 * The records table's view (search, type, sort, grouping) and the lists derived from it over model/table.ts: the
 * rows (marked by the change set's edits and deletions), sorted, filtered and grouped; the types in the zone.
 */
export function useRecordsTable({ all, draft, zoneName, dataUpdatedAt }: { all: DnsRecord[]; draft: Pick<Draft, 'updates' | 'deletes'>; zoneName: string; dataUpdatedAt: number }) {
  const [view, setView] = useState<TableView>(DEFAULT_VIEW);
  // Only edits and deletions mark rows: an addition to the change set leaves a 10,000-row table alone.
  const { updates, deletes } = draft;
  // A large zone's first screen is made from the records that come first by name alone (no row made for the other
  // 100,000); every row follows in a transition right after that frame. Only for the page's first list in the
  // default view: the scroll is at the top then, so the rows in view are those first rows.
  const [firstScreenShown, setFirstScreenShown] = useState(false);
  const firstScreen = useMemo(
    () => (!firstScreenShown && isDefaultView(view) && all.length > FIRST_SCREEN_ROWS ? firstByName(all, FIRST_SCREEN_ROWS) : null),
    [firstScreenShown, all, view],
  );
  const rows = useMemo(() => markedRows(firstScreen ?? all, { updates, deletes }, zoneName), [firstScreen, all, updates, deletes, zoneName]);
  useEffect(() => {
    if (firstScreen) startTransition(() => setFirstScreenShown(true));
  }, [firstScreen]);
  const sorted = useMemo(() => sortRows(rows, view.sort, view.direction), [rows, view.sort, view.direction]);
  const filter = useMemo(narrowingFilter, []);
  const filtered = useMemo(() => filter(sorted, view.query, view.type), [filter, sorted, view.query, view.type]);
  const items = useMemo(() => listItems(filtered, view.groupByType), [filtered, view.groupByType]);
  const typesInZone = useMemo(() => typesIn(all), [all]);
  // Runs after the table's rows are committed to the DOM (child layout effects run first): the bench's marks, only in
  // the build bench:records makes (VITE_BENCH_MARKS); the shipped bundle has neither the marks nor perf.ts.
  useLayoutEffect(() => {
    if (import.meta.env.VITE_BENCH_MARKS === 'true') markTableRendered(filtered.length, dataUpdatedAt);
  }, [filtered, view.query, dataUpdatedAt]);
  const searchRef = useRef<HTMLInputElement>(null);

  return {
    view,
    rows,
    /** Every record of the zone, whether or not its row is made yet. */
    total: all.length,
    /** The first screen is shown while the rest of the rows are made (a moment, for a large zone). */
    settling: firstScreen !== null,
    filtered,
    items,
    typesInZone,
    searchRef,
    sort: (key: SortKey) => setView((v) => sortedBy(v, key)),
    search: (query: string) => {
      if (import.meta.env.VITE_BENCH_MARKS === 'true') markSearchInput();
      setView((v) => ({ ...v, query }));
    },
    clearSearch: () => setView((v) => ({ ...v, query: '' })),
    filterType: (type: ListedType | 'all') => setView((v) => ({ ...v, type })),
    groupByType: (groupByType: boolean) => setView((v) => ({ ...v, groupByType })),
  };
}
