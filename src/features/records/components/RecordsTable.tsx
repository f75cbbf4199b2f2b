import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { Badge, PHONE_QUERY, useMediaQuery } from '@/ui/index.ts';
import type { ListItem, Row, SortKey, TableView } from '../model/table.ts';
import { RecordCards } from './RecordCards.tsx';
import { PENDING_WORDS, RecordActions, RecordTags, SelectBox, type RecordItemProps } from './record-actions.tsx';

const ROW_HEIGHT = 44;
const COLUMNS: Array<{ key: SortKey; label: string; className: string }> = [
  { key: 'name', label: 'Name', className: 'w-[22%]' },
  { key: 'type', label: 'Type', className: 'w-[10%]' },
  { key: 'content', label: 'Content', className: 'w-[38%]' },
  { key: 'ttl', label: 'TTL', className: 'w-[10%]' },
];

export interface RecordsTableProps {
  items: ListItem[];
  total: number;
  view: TableView;
  onSort: (key: SortKey) => void;
  /** Absent for a reader who may not change records (a viewer's grant): no Edit or Delete then. */
  onEdit?: (row: Row) => void;
  onDelete?: (row: Row) => void;
  /** The record's own history (the domain's History tab). */
  onHistory?: (row: Row) => void;
  busy?: boolean;
  /** Records selected for a change together, and the checkbox that toggles one. */
  selected?: ReadonlySet<string>;
  onToggle?: (id: string) => void;
}

/**
 * A real <table> whose body renders only the rows in view (plus a few), with spacer rows above and below,
 * so 10,000 records scroll and filter smoothly while screen readers still see a table with headers.
 */
export function RecordsTable(props: RecordsTableProps) {
  // Below Tailwind's `sm` the columns cannot fit: cards instead (one or the other, not both, so 10,000 rows stay cheap).
  const phone = useMediaQuery(PHONE_QUERY);
  return phone ? <RecordCards {...props} /> : <WideTable {...props} />;
}

/** Rows among the items: all of them, less one heading per type when grouped (no scan of 100,000 items per render). */
function shownCount(items: ListItem[], grouped: boolean): number {
  if (!grouped) return items.length;
  let headings = 0;
  for (const item of items) if (item.kind === 'group') headings++;
  return items.length - headings;
}

/** Rows rendered beyond each edge of the view, so a quick scroll shows rows rather than blank space. */
const OVERSCAN = 12;
/** The view's height before the browser has laid the box out (and in jsdom, which never does). */
const FIRST_VIEW_HEIGHT = 640;

/**
 * The rows in view of a scroll box whose rows all have one height. Every row and group heading is ROW_HEIGHT tall, so
 * the window is arithmetic on the scroll position: constant work per scroll or resize whatever the count, where a
 * general virtualizer measures every one of 100,000 items each time the list changes.
 */
function useFixedHeightWindow(scrollRef: RefObject<HTMLDivElement | null>, count: number) {
  const [view, setView] = useState({ top: 0, height: FIRST_VIEW_HEIGHT });
  useLayoutEffect(() => {
    const box = scrollRef.current;
    if (!box) return;
    const update = () => {
      const next = { top: box.scrollTop, height: box.clientHeight || FIRST_VIEW_HEIGHT };
      setView((current) => (current.top === next.top && current.height === next.height ? current : next));
    };
    update();
    box.addEventListener('scroll', update, { passive: true });
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : undefined;
    resize?.observe(box);
    return () => {
      box.removeEventListener('scroll', update);
      resize?.disconnect();
    };
  }, [scrollRef]);
  const first = Math.min(count, Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN));
  const last = Math.min(count, Math.ceil((view.top + view.height) / ROW_HEIGHT) + OVERSCAN);
  return { first, last, paddingTop: first * ROW_HEIGHT, paddingBottom: (count - last) * ROW_HEIGHT };
}

function WideTable({ items, total, view, onSort, onEdit, onDelete, onHistory, busy, selected, onToggle }: RecordsTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { first, last, paddingTop, paddingBottom } = useFixedHeightWindow(scrollRef, items.length);

  return (
    <div ref={scrollRef} className="max-h-[70vh] overflow-auto rounded-xl border border-slate-200 dark:border-slate-700" data-testid="records-scroll">
      <table className="w-full table-fixed border-collapse text-sm" aria-rowcount={total + 1} aria-busy={busy || undefined}>
        <caption className="sr-only">DNS records, {shownCount(items, view.groupByType)} shown of {total}</caption>
        <thead className="sticky top-0 z-10 bg-slate-50 dark:bg-slate-800">
          <tr>
            {COLUMNS.map((column) => {
              const sorted = view.sort === column.key;
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={`${column.className} px-3 py-2 text-left font-semibold text-slate-700 dark:text-slate-200`}
                  aria-sort={sorted ? (view.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
                >
                  <button type="button" className="inline-flex items-center gap-1 hover:underline" onClick={() => onSort(column.key)}>
                    {column.label}
                    <span aria-hidden="true">{sorted ? (view.direction === 'asc' ? '▲' : '▼') : ''}</span>
                  </button>
                </th>
              );
            })}
            <th scope="col" className="w-[20%] px-3 py-2 text-right font-semibold text-slate-700 dark:text-slate-200">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {paddingTop > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={5} style={{ height: paddingTop, padding: 0 }} />
            </tr>
          ) : null}
          {items.slice(first, last).map((item) => {
            if (item.kind === 'group') {
              return (
                <tr key={`group-${item.type}`} style={{ height: ROW_HEIGHT }} className="bg-slate-100 dark:bg-slate-800/70">
                  <th scope="rowgroup" colSpan={5} className="px-3 text-left font-semibold">
                    {item.type} <span className="font-normal text-slate-600 dark:text-slate-400">({item.count})</span>
                  </th>
                </tr>
              );
            }
            return <RecordRow key={item.row.id} row={item.row} onEdit={onEdit} onDelete={onDelete} onHistory={onHistory} selected={selected?.has(item.row.id) ?? false} onToggle={onToggle} />;
          })}
          {paddingBottom > 0 ? (
            <tr aria-hidden="true">
              <td colSpan={5} style={{ height: paddingBottom, padding: 0 }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}

function RecordRow({
  row,
  onEdit,
  onDelete,
  onHistory,
  selected,
  onToggle,
}: RecordItemProps) {
  const pending = row.pending ? PENDING_WORDS[row.pending] : null;
  return (
    <tr style={{ height: ROW_HEIGHT }} className="border-t border-slate-100 dark:border-slate-800" data-record-id={row.id}>
      <td className="truncate px-3 font-mono" title={row.fqdn}>
        {row.name}
      </td>
      <td className="px-3">
        <Badge>{row.type}</Badge>
      </td>
      <td className="truncate px-3" title={[row.content, row.record.comment].filter(Boolean).join('\n')}>
        <RecordTags tags={row.record.tags} />
        <span className="font-mono">{row.content}</span>
        {row.record.comment ? <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">— {row.record.comment}</span> : null}
      </td>
      <td className="px-3" title={`${row.ttl} seconds`}>
        {row.ttlWords}
      </td>
      <td className="px-3 text-right whitespace-nowrap">
        {pending ? <Badge tone={pending.tone} className="mr-2">{pending.label}</Badge> : null}
        <SelectBox row={row} selected={selected} onToggle={onToggle} />
        <RecordActions row={row} onEdit={onEdit} onDelete={onDelete} onHistory={onHistory} />
      </td>
    </tr>
  );
}
