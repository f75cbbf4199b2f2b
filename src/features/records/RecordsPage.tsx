import { useEffect } from 'react';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, Notice, Spinner } from '@/ui/index.ts';
import { AccessNotices } from './components/AccessNotices.tsx';
import { ChangeSetPanel } from './components/ChangeSetPanel.tsx';
import { RecordsDialogs } from './components/RecordsDialogs.tsx';
import { RecordsHeader } from './components/RecordsHeader.tsx';
import { RecordsList } from './components/RecordsList.tsx';
import { TableFilters } from './components/TableFilters.tsx';
import { useRecordsPage } from './use-records-page.ts';

/** The DNS records of one domain: table, record forms, change set, zone files and templates (state and actions in useRecordsPage). */
export default function RecordsPage({
  domain,
  onRecordHistory,
  prefill,
  onPrefilled,
  readOnly = false,
}: {
  domain: string;
  onRecordHistory?: (recordId: string) => void;
  /** Opens the add form with this name and type once the records are loaded (the Analytics tab's "Add a record"). */
  prefill?: { name: string; type: string } | null;
  onPrefilled?: () => void;
  /** A reader who may look but not change (a viewer's grant): no way to add, edit, delete or draft is offered. */
  readOnly?: boolean;
}) {
  const page = useRecordsPage(domain, { readOnly });
  const { zoneName, records, zone, parked, access, table, recordForm, changeSet, zoneFile, templates, providerImport } = page;
  const { openAddFor } = recordForm;
  const loaded = !records.isPending;
  useEffect(() => {
    if (!prefill || !loaded || readOnly) return;
    openAddFor(prefill.name, prefill.type);
    onPrefilled?.();
  }, [prefill, loaded, readOnly, openAddFor, onPrefilled]);
  const { view } = table;

  if (records.isPending) return <Spinner label="Loading DNS records" />;
  // Only without any records to show does the error take the place of the table; cached records stay, marked stale.
  if (records.isError && records.data === undefined) {
    const explained = explainError(records.error, { domain: zoneName, address: access.address });
    return (
      <Notice tone="danger" title={`The records of ${zoneName} could not be loaded`} actions={<Button onClick={() => void records.refetch()}>Try again</Button>}>
        {explained.title}
        {explained.description ? `: ${explained.description}` : ''}
      </Notice>
    );
  }

  return (
    <section aria-labelledby="records-title" className="space-y-4">
      <RecordsHeader count={zone.length} parked={parked} onTemplates={templates.show} onZoneFile={zoneFile.show} onProviderImport={providerImport.show} fresh={providerImport.fresh} onAdd={recordForm.openAdd} readOnly={readOnly} />

      <AccessNotices
        zoneName={zoneName}
        access={access}
        stale={records.isError ? { error: records.error, since: records.dataUpdatedAt, retrying: records.isFetching, retry: () => void records.refetch() } : null}
      />

      {changeSet.hasDraft && !readOnly ? (
        <ChangeSetPanel
          zoneName={zoneName}
          diff={changeSet.diff}
          problems={changeSet.problems}
          onReview={changeSet.review}
          onEdit={recordForm.openDraftEntry}
          onRemove={changeSet.remove}
          onDiscard={changeSet.discard}
        />
      ) : null}

      <TableFilters
        view={view}
        typesInZone={table.typesInZone}
        searchRef={table.searchRef}
        onSearch={table.search}
        onClearSearch={table.clearSearch}
        onType={table.filterType}
        onGroupByType={table.groupByType}
      />

      <RecordsList page={page} readOnly={readOnly} onRecordHistory={onRecordHistory} />

      <RecordsDialogs page={page} />
    </section>
  );
}
