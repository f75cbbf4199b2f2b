import { useEffect } from 'react';
import { explainError } from '@/lib/errors/explain.ts';
import { Button, Dialog, EmptyState, Notice, Spinner } from '@/ui/index.ts';
import { AccessNotices } from './components/AccessNotices.tsx';
import { ApplyDialog } from './components/ApplyDialog.tsx';
import { BulkBar } from './components/BulkBar.tsx';
import { ChangeSetPanel } from './components/ChangeSetPanel.tsx';
import { DeleteDialog } from './components/DeleteDialog.tsx';
import { RecordForm } from './components/RecordForm.tsx';
import { RecordsHeader } from './components/RecordsHeader.tsx';
import { RecordsTable } from './components/RecordsTable.tsx';
import { TableFilters } from './components/TableFilters.tsx';
import { TemplatesDialog } from './components/TemplatesDialog.tsx';
import { ZoneFileDialog } from './components/ZoneFileDialog.tsx';
import { ProviderImportDialog } from './components/ProviderImportDialog.tsx';
import { formKey, formTitle, formWording, signsNow } from './model/form-mode.ts';
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
  const { zoneName, records, zone, parked, access, table, selection, recordForm, changeSet, zoneFile, templates, providerImport } = useRecordsPage(domain, { readOnly });
  const { form, deleting } = recordForm;
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

      {zone.length === 0 && !records.isFetching ? (
        <EmptyState
          title="No records yet"
          description={readOnly ? `${zoneName} has no records yet.` : `Add a record, use a template, import a zone file, or bring the records over from your current provider (above) to set up ${zoneName}.`}
          action={readOnly ? undefined : <Button onClick={recordForm.openAdd}>Add record</Button>}
        />
      ) : table.filtered.length === 0 ? (
        <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
          No record matches{view.query ? ` “${view.query}”` : ''}
          {view.type !== 'all' ? ` of type ${view.type}` : ''}.
        </p>
      ) : (
        <>
          <p role="status" className="sr-only">
            {table.settling ? table.total : table.filtered.length} of {table.total} records shown
          </p>
          {/* Only once the person searches or selects: the default page keeps its height (the Safe App's iframe is 900 px). */}
          {!readOnly && (selection.count > 0 || view.query !== '') ? (
          <BulkBar
            count={selection.count}
            shown={selection.shown}
            clearedBecause={selection.clearedBecause}
            notes={recordForm.notes}
            onSelectShown={selection.selectShown}
            onClear={selection.clear}
            onTtl={selection.ttl}
            onAddTag={selection.addTag}
            onRemoveTag={selection.removeTag}
            onDelete={selection.remove}
          />
          ) : null}
          <RecordsTable items={table.items} total={table.total} view={view} onSort={table.sort} busy={records.isFetching || table.settling} onEdit={readOnly ? undefined : recordForm.openEdit}
            selected={readOnly ? undefined : selection.selected}
            onToggle={readOnly ? undefined : selection.toggle}
            onDelete={readOnly ? undefined : recordForm.askDelete}
            onHistory={onRecordHistory ? (row) => onRecordHistory(row.id) : undefined}
          />
        </>
      )}

      <Dialog open={form !== null} onClose={recordForm.close} title={formTitle(form)} description={`In ${zoneName}`}>
        {form ? (
          <RecordForm
            key={formKey(form)}
            zoneName={zoneName}
            initial={form.initial}
            mode={formWording(form)}
            canSignNow={signsNow(form)}
            checkZone={recordForm.check}
            signingNotes={recordForm.signingNotes}
            notes={recordForm.notes}
            onSubmit={recordForm.submit}
            parkedConflict={recordForm.parkedConflict}
            forwardedApex={recordForm.forwardedApex}
            onCancel={recordForm.close}
          />
        ) : null}
      </Dialog>

      <DeleteDialog
        zoneName={zoneName}
        row={deleting?.row ?? null}
        busy={recordForm.deleteBusy}
        problem={deleting?.problem ?? null}
        onSign={() => void recordForm.signDelete()}
        onDraft={recordForm.draftDelete}
        onClose={recordForm.closeDelete}
      />

      {zoneFile.open ? (
        <ZoneFileDialog open zoneName={zoneName} zone={zone} exported={zoneFile.exported} exportProgress={zoneFile.exportProgress} initialTab={zoneFile.open} onImport={zoneFile.import} onClose={zoneFile.close} />
      ) : null}

      {providerImport.open ? <ProviderImportDialog zoneName={zoneName} zone={zone} parked={parked} onImport={providerImport.import} onClose={providerImport.close} /> : null}

      {templates.open ? <TemplatesDialog open zoneName={zoneName} zone={zone} onAdd={templates.add} onClose={templates.close} /> : null}

      <ApplyDialog
        open={changeSet.reviewing}
        zoneName={zoneName}
        plan={changeSet.plan}
        signing={changeSet.signing}
        describeId={changeSet.describeId}
        running={changeSet.running}
        onApply={() => void changeSet.applyAll()}
        onClose={changeSet.closeReview}
      />
    </section>
  );
}
