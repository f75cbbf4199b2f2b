import { useLayoutEffect, useRef, useState } from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Badge, Button } from '@/ui/index.ts';
import type { ListItem, Row, SortKey, TableView } from '../model/table.ts';
import { PENDING_WORDS, RecordActions, RecordTags, SelectBox, type RecordItemProps } from './record-actions.tsx';

const CARD_ESTIMATE = 150;
const SORT_LABELS: Record<SortKey, string> = { name: 'Name', type: 'Type', content: 'Content', ttl: 'TTL' };

export interface RecordCardsProps {
  items: ListItem[];
  total: number;
  view: TableView;
  onSort: (key: SortKey) => void;
  /** Absent for a reader who may not change records (a viewer's grant): no Edit or Delete then. */
  onEdit?: (row: Row) => void;
  onDelete?: (row: Row) => void;
  onHistory?: (row: Row) => void;
  busy?: boolean;
  selected?: ReadonlySet<string>;
  onToggle?: (id: string) => void;
}

/**
 * The records on a phone: one card per record, every field on its own line and the actions at the bottom, so
 * nothing needs a sideways scroll. The page scrolls (not a box inside it) and only the cards in view render.
 */
export function RecordCards({ items, total, view, onSort, onEdit, onDelete, onHistory, busy, selected, onToggle }: RecordCardsProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const top = listRef.current ? listRef.current.getBoundingClientRect().top + window.scrollY : 0;
    setScrollMargin((m) => (Math.abs(m - top) > 1 ? top : m));
  });
  const virtualizer = useWindowVirtualizer({ count: items.length, estimateSize: () => CARD_ESTIMATE, overscan: 6, scrollMargin });
  const virtualItems = virtualizer.getVirtualItems();
  const paddingTop = virtualItems.length > 0 ? virtualItems[0].start - scrollMargin : 0;
  const paddingBottom = virtualItems.length > 0 ? virtualizer.getTotalSize() - (virtualItems[virtualItems.length - 1].end - scrollMargin) : 0;
  const shown = items.filter((i) => i.kind === 'row').length;

  return (
    <div className="space-y-3">
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor="records-sort" className="font-medium text-slate-700 dark:text-slate-200">
          Sort by
        </label>
        <select
          id="records-sort"
          value={view.sort}
          onChange={(event) => onSort(event.target.value as SortKey)}
          className="h-9 rounded-lg border border-slate-300 bg-white px-2 dark:border-slate-600 dark:bg-slate-900"
        >
          {(Object.keys(SORT_LABELS) as SortKey[]).map((key) => (
            <option key={key} value={key}>
              {SORT_LABELS[key]}
            </option>
          ))}
        </select>
        <Button variant="secondary" size="sm" onClick={() => onSort(view.sort)} aria-label={`Sort ${view.direction === 'asc' ? 'descending' : 'ascending'}`}>
          <span aria-hidden="true">{view.direction === 'asc' ? '▲' : '▼'}</span>
          {view.direction === 'asc' ? 'A–Z' : 'Z–A'}
        </Button>
      </div>
      <ul
        ref={listRef}
        aria-label={`DNS records, ${shown} shown of ${total}`}
        aria-busy={busy || undefined}
        data-testid="records-cards"
        style={{ paddingTop, paddingBottom }}
      >
        {virtualItems.map((virtual) => {
          const item = items[virtual.index];
          return (
            <li key={virtual.key} data-index={virtual.index} ref={virtualizer.measureElement} className="pb-2">
              {item.kind === 'group' ? (
                <p className="px-1 pt-2 text-sm font-semibold">
                  {item.type} <span className="font-normal text-slate-600 dark:text-slate-400">({item.count})</span>
                </p>
              ) : (
                <RecordCard row={item.row} onEdit={onEdit} onDelete={onDelete} onHistory={onHistory} selected={selected?.has(item.row.id) ?? false} onToggle={onToggle} />
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function RecordCard({
  row,
  onEdit,
  onDelete,
  onHistory,
  selected,
  onToggle,
}: RecordItemProps) {
  const pending = row.pending ? PENDING_WORDS[row.pending] : null;
  return (
    <article
      aria-label={`${row.type} record ${row.name}`}
      data-record-id={row.id}
      className="rounded-xl border border-slate-200 bg-white p-3 text-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-2">
        <SelectBox row={row} selected={selected} onToggle={onToggle} />
        <Badge>{row.type}</Badge>
        <span className="min-w-0 font-mono font-semibold break-all" title={row.fqdn}>
          {row.name}
        </span>
        {pending ? <Badge tone={pending.tone}>{pending.label}</Badge> : null}
      </div>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
        <dt className="text-slate-600 dark:text-slate-400">Content</dt>
        <dd className="font-mono break-all">{row.content}</dd>
        <dt className="text-slate-600 dark:text-slate-400">TTL</dt>
        <dd title={`${row.ttl} seconds`}>{row.ttlWords}</dd>
        {row.record.comment ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Comment</dt>
            <dd className="break-words">{row.record.comment}</dd>
          </>
        ) : null}
        {row.record.tags && row.record.tags.length > 0 ? (
          <>
            <dt className="text-slate-600 dark:text-slate-400">Tags</dt>
            <dd>
              <RecordTags tags={row.record.tags} />
            </dd>
          </>
        ) : null}
      </dl>
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <RecordActions row={row} onEdit={onEdit} onDelete={onDelete} onHistory={onHistory} size="md" />
      </div>
    </article>
  );
}
