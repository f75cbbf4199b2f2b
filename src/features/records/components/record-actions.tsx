import { managedWords } from '#core/dns/managed.ts';
import { isWritableType, managedByOf } from '#core/wire/dns.ts';
import { Badge, Button } from '@/ui/index.ts';
import type { Row } from '../model/table.ts';
import { LiveStatus } from './LiveStatus.tsx';

export const PENDING_WORDS: Record<NonNullable<Row['pending']>, { label: string; tone: 'info' | 'warning' | 'danger' }> = {
  add: { label: 'Adding', tone: 'info' },
  change: { label: 'Edited in draft', tone: 'warning' },
  remove: { label: 'Deleted in draft', tone: 'danger' },
};


/** One record as a table row or a phone card: its actions (none for a viewer) and its selection for bulk changes. */
export interface RecordItemProps {
  row: Row;
  onEdit?: (row: Row) => void;
  onDelete?: (row: Row) => void;
  onHistory?: (row: Row) => void;
  selected: boolean;
  onToggle?: (id: string) => void;
}

/** Whether DNS answers the record yet, and Edit and Delete (or why there are none): shared by the table and the phone's cards. */
export function RecordActions({
  row,
  onEdit,
  onDelete,
  onHistory,
  size = 'sm',
}: {
  row: Row;
  /** Both absent for a reader who may not change records (a viewer's grant). */
  onEdit?: (row: Row) => void;
  onDelete?: (row: Row) => void;
  onHistory?: (row: Row) => void;
  size?: 'sm' | 'md';
}) {
  const label = `${row.type} record ${row.name}`;
  const live = isWritableType(row.type) ? <LiveStatus row={row} type={row.type} /> : null;
  if (row.managed) {
    const words = managedWords(managedByOf(row.record));
    return (
      <>
        {live}
        <span className="text-xs text-slate-600 dark:text-slate-400" title={words.why}>
          <Badge tone="info">{words.badge}</Badge> <span className="sr-only">Managed by {words.by}: read-only. </span>read-only
        </span>
      </>
    );
  }
  if (row.pending === 'add') return null;
  return (
    <>
      {live}
      {onEdit ? (
        <Button variant="ghost" size={size} aria-label={`Edit ${label}`} onClick={() => onEdit(row)}>
          Edit
        </Button>
      ) : null}
      {onDelete ? (
        <Button variant="ghost" size={size} aria-label={`Delete ${label}`} onClick={() => onDelete(row)} disabled={row.pending === 'remove'}>
          Delete
        </Button>
      ) : null}
      {onHistory ? (
        <Button variant="ghost" size={size} aria-label={`History of ${label}`} onClick={() => onHistory(row)}>
          History
        </Button>
      ) : null}
    </>
  );
}

/** A record's tags as small badges (at most three, then how many more): shared by the table and the cards. */
export function RecordTags({ tags }: { tags?: readonly string[] }) {
  if (!tags || tags.length === 0) return null;
  const shown = tags.slice(0, 3);
  return (
    <span className="mr-2 inline-flex gap-1 align-middle">
      <span className="sr-only">Tags:</span>
      {shown.map((tag) => (
        <Badge key={tag} tone="info">
          {tag}
        </Badge>
      ))}
      {tags.length > shown.length ? <span className="text-xs text-slate-600 dark:text-slate-400">+{tags.length - shown.length}</span> : null}
    </span>
  );
}

/** The checkbox that selects a record for a change together with others; managed and pending rows have none. */
export function SelectBox({ row, selected, onToggle }: { row: Row; selected: boolean; onToggle?: (id: string) => void }) {
  if (!onToggle || row.managed || row.pending === 'add') return null;
  return (
    <input
      type="checkbox"
      className="mr-2 h-4 w-4 align-middle"
      checked={selected}
      aria-label={`Select ${row.type} record ${row.name}`}
      onChange={() => onToggle(row.id)}
    />
  );
}
