import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { config } from '@/lib/config.ts';
import { Notice, Select, TextField } from '@/ui/index.ts';
import { fieldsFor } from '../model/record-fields.ts';
import { COMMON_TYPES, EDITABLE_TYPES, recordFormSchema, switchType, type EditableType, type RecordFormValues, type RecordInput } from '../model/record-form.ts';
import { enterMode, nameHint, recordFormView } from '../model/record-form-view.ts';
import type { Problem } from '../model/zone-check.ts';
import type { SubmitMode } from '../model/form-mode.ts';
import { useRecordFormSubmit } from '../use-record-form-submit.ts';
import { RdataField } from './RdataField.tsx';
import { FormActions, NotesFields, SigningSection, TtlFields, ValueNotices } from './RecordFormParts.tsx';


/** What a submit can answer: nothing (done) or errors to show on fields and above the form. */
export interface SubmitProblem {
  fieldErrors?: Record<string, string>;
  formError?: { title: string; description?: string; tone?: 'danger' | 'info' };
}

export interface RecordFormProps {
  zoneName: string;
  initial: RecordFormValues;
  /** 'add' or 'edit': the notice and button words follow it. */
  mode: 'add' | 'edit';
  /** Runs the zone rules on the record before anything is signed. */
  checkZone: (record: RecordInput, how: SubmitMode) => Problem | null;
  onSubmit: (record: RecordInput, how: SubmitMode) => Promise<SubmitProblem | null>;
  onCancel: () => void;
  /** Offer "Sign now" (false while the record only exists in the draft). */
  canSignNow?: boolean;
  /** What the service's signing types mean for this record (an unsigned record type, or no safe signature), said before the wallet opens. */
  signingNotes?: (record: RecordInput) => string[];
  /** The zone is parked and this record is one parking serves itself (an apex address): offer to unpark first. */
  parkedConflict?: (record: RecordInput) => boolean;
  /** Forwarding is on and this record is an apex address: the forwarder's, so the form says where to turn it off. */
  forwardedApex?: (record: RecordInput) => boolean;
  /** The service signs a record's comment and tags: offer them (production keeps none). */
  notes?: boolean;
}

// ALIAS is a type of this service's (the contract's "ours"): production refuses it, so only this service is offered it.
const typeOptions = [...COMMON_TYPES, ...EDITABLE_TYPES.filter((t) => !COMMON_TYPES.includes(t))]
  .filter((t) => t !== 'ALIAS' || config.isLocalService)
  .map((t) => ({ value: t, label: t }));

/**
 * One record, added or changed: its type, name and data fields, the notices its values call for, its TTL and notes,
 * what signing will do, and the buttons. What it shows is worked out from the values as typed
 * (model/record-form-view.ts); its submit checks the zone rules before the caller signs (use-record-form-submit.ts).
 */
export function RecordForm({ zoneName, initial, mode, checkZone, onSubmit, onCancel, canSignNow = true, signingNotes, parkedConflict, forwardedApex, notes = false }: RecordFormProps) {
  const schema = useMemo(() => recordFormSchema(zoneName), [zoneName]);
  const form = useForm<RecordFormValues>({ resolver: zodResolver(schema) as never, defaultValues: initial, mode: 'onTouched' });
  const { register, reset, getValues, control, formState } = form;
  const values = useWatch({ control }) as RecordFormValues;
  const type = values.type ?? initial.type;
  const { submit, submitting, formError } = useRecordFormSubmit({ form, zoneName, notes, checkZone, onSubmit });
  const view = recordFormView(values, zoneName, notes);
  const { record } = view;
  // Known before submitting: the record meets parking, so the way through is offered in this form.
  const unparkFirst = canSignNow && !!record && !!parkedConflict?.(record);
  const onTypeChange = (next: EditableType) => reset(switchType(getValues(), next), { keepDefaultValues: true });

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(enterMode(unparkFirst, canSignNow))();
      }}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Select
          label="Type"
          options={typeOptions}
          error={formState.errors.type?.message}
          {...register('type', { onChange: (event) => onTypeChange(event.target.value as EditableType) })}
        />
        <div className="sm:col-span-2">
          <TextField label="Name" hint={nameHint(view, zoneName)} error={formState.errors.name?.message} autoComplete="off" spellCheck={false} {...register('name')} />
        </div>
      </div>

      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {fieldsFor(type).map((spec) => (
          <RdataField
            key={`${type}-${spec.key}`}
            spec={spec}
            current={(values as Record<string, string | undefined>)[spec.key]}
            error={formState.errors[spec.key]?.message}
            register={register}
            conversion={view.conversionOf(spec.key)}
          />
        ))}
      </div>
      <ValueNotices type={type} name={values.name} record={record} />

      <TtlFields view={view} error={formState.errors.ttl} register={register} setTtl={(ttl) => form.setValue('ttl', ttl, { shouldValidate: true })} />

      {notes ? <NotesFields errors={formState.errors} register={register} /> : null}

      {formError ? (
        <Notice tone={formError.tone ?? 'danger'} title={formError.title}>
          {formError.description}
        </Notice>
      ) : null}

      <SigningSection
        zoneName={zoneName}
        mode={mode}
        initial={initial}
        view={view}
        canSignNow={canSignNow}
        unparkFirst={unparkFirst}
        signingNotes={signingNotes}
        forwardedApex={forwardedApex}
      />

      <FormActions
        mode={mode}
        canSignNow={canSignNow}
        unparkFirst={unparkFirst}
        submitting={submitting}
        onDraft={() => void submit('draft')()}
        onCancel={onCancel}
      />
    </form>
  );
}
