import { useCallback, useState } from 'react';
import { isApexAddress } from '#core/dns/parking.ts';
import { isStoredRecord, type DnsRecord } from '#core/wire/dns.ts';
import { requestSignIn } from '@/lib/session/wallet-session.ts';
import { chooseSigning } from '#core/eip712/signing-choice.ts';
import { fitNotes, signsNotes } from '#core/eip712/envelope.ts';
import { useToast } from '@/ui/index.ts';
import { useToggleParking } from '@/features/parking/index.ts';
import { useCreateRecord } from './api/create-record.ts';
import { useDeleteRecord } from './api/delete-record.ts';
import { useUpdateRecord } from './api/update-record.ts';
import type { SubmitProblem } from './components/RecordForm.tsx';
import { problemFromError } from './errors.ts';
import type { DiffEntry } from './model/change-set.ts';
import { recordInWords } from './model/describe.ts';
import { addForm, checkFormChange, draftEntryForm, editForm, singleWrite, withFormChange, type FormState, type SubmitMode } from './model/form-mode.ts';
import { EDITABLE_TYPES, type EditableType, type RecordInput } from './model/record-form.ts';
import { singleWriteNotes, type RecordTypes } from './model/signing-plan.ts';
import type { Row } from './model/table.ts';
import type { ChangeSet } from './use-change-set.ts';

const isEditableType = (type: string): type is EditableType => (EDITABLE_TYPES as readonly string[]).includes(type);

export interface RecordFormContext {
  zoneName: string;
  /** The stored records (no write on the way): what a change is checked against. */
  zone: DnsRecord[];
  parked: boolean;
  /** Forwarding is on: the apex addresses are the forwarder's. */
  forwarding: boolean;
  address: `0x${string}` | undefined;
  apiKey: boolean;
  /** Signed out without an API key: a change is kept in the change set until the person signs in. */
  signedOut: boolean;
  /** The service is known to be away: nothing is signed until it answers again. */
  serviceAway: boolean;
  signingTypes: RecordTypes;
  changeSet: Pick<ChangeSet, 'draft' | 'updateDraft' | 'addDelete'>;
}

/**
 * One record at a time: the record form (add or edit, signed now or put in the change set, or an item of the change
 * set edited) and the delete dialog. A write that fails stays in its form or dialog with the reason; one that lands
 * closes it and says so in a toast.
 */
export function useRecordForm({ zoneName, zone, parked, forwarding, address, apiKey, signedOut, serviceAway, signingTypes, changeSet }: RecordFormContext) {
  const { toast } = useToast();
  const { draft, updateDraft } = changeSet;
  const [form, setForm] = useState<FormState | null>(null);
  const [deleting, setDeleting] = useState<{ row: Row; problem: SubmitProblem['formError'] | null } | null>(null);
  const create = useCreateRecord(zoneName);
  const update = useUpdateRecord(zoneName);
  const remove = useDeleteRecord(zoneName);
  const unpark = useToggleParking(zoneName);
  const context = { domain: zoneName, address };

  const openAdd = useCallback(() => setForm(addForm()), []);
  /** The add form with a name and type filled in (an editable type; others start as A). */
  const openAddFor = useCallback((name: string, type: string) => setForm(addForm(isEditableType(type) ? type : 'A', name)), []);
  const close = () => setForm(null);

  /** The zone rules on the record before anything is signed. */
  const check = (record: RecordInput, how: SubmitMode) => (form ? checkFormChange(form, record, how, draft, { zone, zoneName, parked, forwarding }) : null);

  const submit = async (record: RecordInput, how: SubmitMode): Promise<SubmitProblem | null> => {
    if (!form) return null;
    if (how === 'draft' || form.mode === 'draft-create' || form.mode === 'draft-update') {
      updateDraft((d) => withFormChange(d, form, record).draft);
      setForm(null);
      toast({ tone: 'info', title: 'Added to the change set', description: recordInWords(record, zoneName), durationMs: 3000 });
      return null;
    }
    if (signedOut) {
      // Kept where it survives the sign-in (the form is a modal the sign-in dialog cannot sit over).
      updateDraft((d) => withFormChange(d, form, record).draft);
      setForm(null);
      toast({ tone: 'info', title: 'Kept in the change set: sign in to send it', description: `You are signed out, so nothing was signed. ${recordInWords(record, zoneName)}` });
      requestSignIn();
      return null;
    }
    // A signature the service cannot receive is a wasted one: ask for none while it is known to be away.
    if (serviceAway) {
      return {
        formError: {
          title: 'The service cannot be reached',
          description: 'Nothing was signed. Your record is still here: try again when the service is back, or add it to the change set.',
        },
      };
    }
    if (how === 'unpark-and-sign') {
      try {
        await unpark.mutateAsync({ enableParking: false, overrideExistingRecords: false });
      } catch (error) {
        return problemFromError(error, context);
      }
    }
    const verb = form.mode === 'edit' ? 'saved' : 'added';
    try {
      if (form.mode === 'edit') await update.mutateAsync({ id: form.record.id, record });
      else await create.mutateAsync(record);
      setForm(null);
      toast({ tone: 'success', title: `${how === 'unpark-and-sign' ? 'Unparked; r' : 'R'}ecord ${verb}`, description: recordInWords(record, zoneName), durationMs: 4000 });
      return null;
    } catch (error) {
      const problem = problemFromError(error, context);
      // Parking is already off: say so, so that the next try is only the record.
      if (how === 'unpark-and-sign' && problem.formError) {
        const title = problem.formError.title;
        problem.formError = {
          ...problem.formError,
          title: `Parking is off now, but the record was not ${verb}`,
          description: `${title}. Your record is still here: ${form.mode === 'edit' ? 'Save and sign' : 'Add and sign'} tries it alone.`,
        };
      }
      return problem;
    }
  };

  /** What the service's types mean for a record signed on its own, for the form's notice. */
  const signingNotes = (record: RecordInput): string[] => {
    if (!form || apiKey) return [];
    const { method, payload } = singleWrite(form, record, zoneName);
    const types = signingTypes[method];
    return types ? singleWriteNotes(chooseSigning(types, fitNotes(types.types, payload)), record.type) : [];
  };

  const signDelete = async () => {
    if (!deleting) return;
    const { row } = deleting;
    if (signedOut) {
      setDeleting(null);
      toast({ tone: 'info', title: 'Sign in to delete records', description: 'You are signed out, so nothing was signed or deleted.' });
      requestSignIn();
      return;
    }
    try {
      await remove.mutateAsync(row.id);
      setDeleting(null);
      toast({ tone: 'success', title: 'Record deleted', description: recordInWords(row.record, zoneName), durationMs: 4000 });
    } catch (error) {
      setDeleting({ row, problem: problemFromError(error, context).formError ?? null });
    }
  };

  return {
    /** What the form is open for, or null when it is closed. */
    form,
    openAdd,
    openAddFor,
    openEdit: (row: Row) => {
      if (isStoredRecord(row.record)) setForm(editForm(row.record));
    },
    openDraftEntry: (entry: DiffEntry) => {
      const next = draftEntryForm(entry);
      if (next) setForm(next);
    },
    close,
    check,
    submit,
    signingNotes,
    /** The service signs a record's comment and tags (the local service; production keeps none): the form offers them. */
    notes: signingTypes.createDnsRecord ? signsNotes(signingTypes.createDnsRecord.types) : false,
    /** In a parked zone an apex address meets parking: the form offers to unpark first. */
    parkedConflict: parked ? (record: RecordInput) => isApexAddress(record) : undefined,
    /** While forwarding is on an apex address is the forwarder's: the form says so (turning it off is the Forwarding panel's). */
    forwardedApex: forwarding ? (record: RecordInput) => isApexAddress(record) : undefined,
    deleting,
    deleteBusy: remove.isPending,
    askDelete: (row: Row) => setDeleting({ row, problem: null }),
    signDelete,
    /** The deletion joins the change set instead of being signed now. */
    draftDelete: () => {
      if (deleting) changeSet.addDelete(deleting.row.id);
      setDeleting(null);
    },
    closeDelete: () => setDeleting(null),
  };
}

