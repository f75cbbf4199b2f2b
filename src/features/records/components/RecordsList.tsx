import { Button, EmptyState } from '@/ui/index.ts';
import type { RecordsPageState } from '../use-records-page.ts';
import { BulkBar } from './BulkBar.tsx';
import { RecordsTable } from './RecordsTable.tsx';

/**
 * The records page's list: an empty zone's first steps, the words for a search that matches nothing, or the table
 * with the bar that changes the selected records together.
 */
export function RecordsList({
  page: { zoneName, records, zone, table, selection, recordForm },
  readOnly,
  onRecordHistory,
}: {
  page: RecordsPageState;
  readOnly: boolean;
  onRecordHistory?: (recordId: string) => void;
}) {
  const { view } = table;
  if (zone.length === 0 && !records.isFetching) {
    return (
      <EmptyState
        title="No records yet"
        description={readOnly ? `${zoneName} has no records yet.` : `Add a record, use a template, import a zone file, or bring the records over from your current provider (above) to set up ${zoneName}.`}
        action={readOnly ? undefined : <Button onClick={recordForm.openAdd}>Add record</Button>}
      />
    );
  }
  if (table.filtered.length === 0) {
    return (
      <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
        No record matches{view.query ? ` “${view.query}”` : ''}
        {view.type !== 'all' ? ` of type ${view.type}` : ''}.
      </p>
    );
  }
  return (
    <>
      <p role="status" className="sr-only">
        {table.settling ? table.total : table.filtered.length} of {table.total} records shown
      </p>
      {/* Only once the person searches or selects: the default page keeps its height (the Safe App's iframe is 900 px). */}
      {!readOnly && (selection.count > 0 || view.query !== '') ? (
        <BulkBar
          count={selection.count}
          shown={selection.shown}
          notes={recordForm.notes}
          onSelectShown={selection.selectShown}
          onClear={selection.clear}
          onTtl={selection.ttl}
          onAddTag={selection.addTag}
          onRemoveTag={selection.removeTag}
          onDelete={selection.remove}
        />
      ) : null}
      <RecordsTable
        items={table.items}
        total={table.total}
        view={view}
        onSort={table.sort}
        busy={records.isFetching || table.settling}
        onEdit={readOnly ? undefined : recordForm.openEdit}
        selected={readOnly ? undefined : selection.selected}
        onToggle={readOnly ? undefined : selection.toggle}
        onDelete={readOnly ? undefined : recordForm.askDelete}
        onHistory={onRecordHistory ? (row) => onRecordHistory(row.id) : undefined}
      />
    </>
  );
}
