import { managedByOf, type DnsRecord, type StoredDnsRecord } from '#core/wire/dns.ts';
import { addCreate, replaceCreate, setUpdate, type DiffEntry, type Draft } from './change-set.ts';
import { blankFormValues, toFormValues, type EditableType, type RecordFormValues, type RecordInput } from './record-form.ts';
import { checkDraft, checkOne, type Problem } from './zone-check.ts';

/**
 * What the record form is open for: adding or editing a stored record (signed now, or put in the change set),
 * or editing an addition or an edit that so far lives only in the change set.
 */
export type FormState =
  | { mode: 'add'; initial: RecordFormValues }
  | { mode: 'edit'; initial: RecordFormValues; record: DnsRecord }
  | { mode: 'draft-create'; initial: RecordFormValues; key: string }
  | { mode: 'draft-update'; initial: RecordFormValues; record: DnsRecord };

/** 'unpark-and-sign': stop parking, then write the record; two signatures, one step for the person. */
export type SubmitMode = 'sign' | 'draft' | 'unpark-and-sign';

export const addForm = (type: EditableType = 'A', name = '@'): FormState => ({ mode: 'add', initial: blankFormValues(type, name) });
export const editForm = (record: StoredDnsRecord): FormState => ({ mode: 'edit', record, initial: toFormValues(record) });

/** A change-set entry opened in the form: an addition or an edit of a record still in the zone; a deletion has no form. */
export function draftEntryForm(entry: DiffEntry): FormState | null {
  if (entry.kind === 'add') return { mode: 'draft-create', key: entry.key, initial: toFormValues(entry.after) };
  if (entry.kind === 'change' && entry.before) return { mode: 'draft-update', record: entry.before, initial: toFormValues(entry.after) };
  return null;
}

/** Whether the form offers a signature now: only for what is not yet in the change set. */
export const signsNow = (form: FormState): boolean => form.mode === 'add' || form.mode === 'edit';

/** The form's words follow whether it adds or edits. */
export const formWording = (form: FormState): 'add' | 'edit' => (form.mode === 'add' || form.mode === 'draft-create' ? 'add' : 'edit');

export function formTitle(form: FormState | null): string {
  return form?.mode === 'add' ? 'Add a record' : form?.mode === 'draft-create' ? 'Edit a pending record' : 'Edit record';
}

/** A new form for a new target, so no field of the last one lingers. */
export function formKey(form: FormState): string {
  return `${form.mode}-${'record' in form ? form.record.id : 'key' in form ? form.key : 'new'}`;
}

/** The draft with the form's change in it, and the key of the changed item. */
export function withFormChange(draft: Draft, form: FormState, record: RecordInput): { draft: Draft; key: string | null } {
  if (form.mode === 'draft-create') return { draft: replaceCreate(draft, form.key, record), key: form.key };
  if (form.mode === 'edit' || form.mode === 'draft-update') {
    const next = setUpdate(draft, form.record, record);
    return { draft: next, key: next.updates.some((u) => u.id === form.record.id) ? `u:${form.record.id}` : null };
  }
  const next = addCreate(draft, record);
  return { draft: next, key: next.creates.find((c) => c.record === record)?.key ?? null };
}

export interface ZoneContext {
  zone: DnsRecord[];
  zoneName: string;
  parked: boolean;
  /** Forwarding is on: the forwarder's addresses hold the apex. */
  forwarding?: boolean;
}

/** A quick change is checked alone against the zone; a draft change together with the rest of the draft. */
export function checkFormChange(form: FormState, record: RecordInput, how: SubmitMode, draft: Draft, { zone, zoneName, parked, forwarding = false }: ZoneContext): Problem | null {
  if (how === 'sign' || how === 'unpark-and-sign') {
    // Unparking first: the record is checked against the zone as it will be, parking records gone.
    const against = how === 'sign' ? zone : zone.filter((r) => managedByOf(r) !== 'parking');
    const asParked = how === 'sign' && parked;
    if (form.mode === 'add') return checkOne({ creates: [record], updates: [], deletes: [] }, against, zoneName, asParked, forwarding);
    if (form.mode === 'edit') return checkOne({ creates: [], updates: [{ ...record, id: form.record.id }], deletes: [] }, against, zoneName, asParked, forwarding);
    return null;
  }
  const { draft: next, key } = withFormChange(draft, form, record);
  return key ? (checkDraft(next, zone, zoneName, parked, forwarding).get(key) ?? null) : null;
}

/** The operation and the body a record signed on its own sends, for the notes said before the wallet opens. */
export function singleWrite(form: FormState, record: RecordInput, zoneName: string): { method: 'createDnsRecord' | 'updateDnsRecord'; payload: Record<string, unknown> } {
  return form.mode === 'edit'
    ? { method: 'updateDnsRecord', payload: { id: form.record.id, zoneName, ...record } }
    : { method: 'createDnsRecord', payload: { zoneName, ...record } };
}
