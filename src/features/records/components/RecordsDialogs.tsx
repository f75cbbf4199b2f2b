import { Dialog } from '@/ui/index.ts';
import { formKey, formTitle, formWording, signsNow } from '../model/form-mode.ts';
import type { RecordsPageState } from '../use-records-page.ts';
import { ApplyDialog } from './ApplyDialog.tsx';
import { DeleteDialog } from './DeleteDialog.tsx';
import { ProviderImportDialog } from './ProviderImportDialog.tsx';
import { RecordForm } from './RecordForm.tsx';
import { TemplatesDialog } from './TemplatesDialog.tsx';
import { ZoneFileDialog } from './ZoneFileDialog.tsx';

/** The records page's dialogs: the record form, a deletion, the zone file, the provider import, templates, the change set's review. */
export function RecordsDialogs({ page: { zoneName, zone, parked, recordForm, changeSet, zoneFile, templates, providerImport } }: { page: RecordsPageState }) {
  const { form, deleting } = recordForm;
  return (
    <>
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
    </>
  );
}
