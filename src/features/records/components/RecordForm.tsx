import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { fullName, validateRecordName } from '#core/dns/names.ts';
import { parseTtl, ttlInWords, TTL_PRESETS } from '#core/dns/ttl.ts';
import { config } from '@/lib/config.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { rdataWarnings } from '#core/dns/rdata.ts';
import { MAX_COMMENT, parseTags } from '#core/dns/record-notes.ts';
import { Button, Notice, Select, TextField } from '@/ui/index.ts';
import { fieldsFor, type FieldSpec } from '../model/record-fields.ts';
import {
  ALIAS_EXPLAINED,
  COMMON_TYPES,
  EDITABLE_TYPES,
  recordFormSchema,
  switchType,
  toRecordInput,
  type EditableType,
  type RecordFormValues,
  type RecordInput,
} from '../model/record-form.ts';
import { recordInWords } from '../model/describe.ts';
import { conversionText, toALabelValues, type NameConversion } from '../model/idna-fields.ts';
import type { Problem } from '../model/zone-check.ts';
import type { SubmitMode } from '../model/form-mode.ts';

export type { SubmitMode };

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
const CUSTOM = 'custom';

/** The main field of a type: where zone-rule problems about the data land. */
function mainField(type: EditableType): string {
  const fields = fieldsFor(type);
  return fields[fields.length - 1].key;
}

export function RecordForm({ zoneName, initial, mode, checkZone, onSubmit, onCancel, canSignNow = true, signingNotes, parkedConflict, forwardedApex, notes = false }: RecordFormProps) {
  const schema = useMemo(() => recordFormSchema(zoneName), [zoneName]);
  const form = useForm<RecordFormValues>({ resolver: zodResolver(schema) as never, defaultValues: initial, mode: 'onTouched' });
  const { register, handleSubmit, setError, reset, getValues, control, formState } = form;
  const values = useWatch({ control }) as RecordFormValues;
  const type = values.type ?? initial.type;
  const [formError, setFormError] = useState<SubmitProblem['formError'] | null>(null);
  const [submitting, setSubmitting] = useState<SubmitMode | null>(null);

  // A name typed in Unicode is shown in both forms before anything is signed; the A-label is what is sent.
  const idna = toALabelValues({ ...values, name: values.name ?? '' });
  const converted = (field: string): NameConversion | undefined => idna.conversions.find((c) => c.field === field);
  const name = validateRecordName(idna.values.name, zoneName);
  const preview = name.ok ? fullName(name.value, zoneName) : null;
  const ttl = parseTtl(values.ttl ?? '');
  const presetMatch = ttl.ok && TTL_PRESETS.some((p) => p.seconds === ttl.value) ? String(ttl.value) : CUSTOM;
  const [customTtl, setCustomTtl] = useState(presetMatch === CUSTOM);
  const typed = toRecordInput(values, zoneName);
  // Without notes on offer none are sent: an edit then keeps the stored ones.
  const record = typed && !notes ? withoutRecordNotes(typed) : typed;
  // Known before submitting: the record meets parking, so the way through is offered in this form.
  const unparkFirst = canSignNow && !!record && !!parkedConflict?.(record);

  const submit = (how: SubmitMode) =>
    handleSubmit(async (valid) => {
      const typedInput = toRecordInput(valid, zoneName);
      if (!typedInput) return;
      const input = notes ? typedInput : withoutRecordNotes(typedInput);
      setFormError(null);
      const problem = checkZone(input, how);
      if (problem) {
        const field = problem.field === 'name' ? 'name' : problem.field === 'type' ? 'type' : mainField(valid.type);
        setError(field, { type: 'zone', message: problem.message }, { shouldFocus: true });
        return;
      }
      setSubmitting(how);
      try {
        const result = await onSubmit(input, how);
        if (!result) return;
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          setError(field === 'rdata' ? mainField(valid.type) : field.startsWith('tags') ? 'tags' : field, { type: 'server', message }, { shouldFocus: true });
        }
        if (result.formError) setFormError(result.formError);
      } finally {
        setSubmitting(null);
      }
    });

  const onTypeChange = (next: EditableType) => reset(switchType(getValues(), next), { keepDefaultValues: true });
  const verb = mode === 'add' ? 'Add' : 'Change';

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(unparkFirst ? 'unpark-and-sign' : canSignNow ? 'sign' : 'draft')();
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
          <TextField
            label="Name"
            hint={[
              converted('name') ? `${conversionText(converted('name')!)}.` : '',
              preview ? `Full name: ${preview} (@ is ${zoneName} itself)` : 'Relative to the zone, e.g. www or @ for the zone itself',
            ].join(' ').trim()}
            error={formState.errors.name?.message}
            autoComplete="off"
            spellCheck={false}
            {...register('name')}
          />
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
            conversion={converted(spec.key)}
          />
        ))}
      </div>
      {type === 'ALIAS' || (type === 'CNAME' && (values.name ?? '').trim() === '@') ? (
        <Notice tone="info" title={type === 'ALIAS' ? 'ALIAS: a CNAME that works at the apex' : 'At the apex, use ALIAS'}>
          {ALIAS_EXPLAINED}
        </Notice>
      ) : null}
      {record
        ? rdataWarnings(record.type, record.rdata).map((warning) => (
            <Notice key={warning} tone="warning" title="Check this value">
              {warning}
            </Notice>
          ))
        : null}

      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Select
          label="TTL"
          value={customTtl ? CUSTOM : presetMatch}
          onChange={(event) => {
            if (event.target.value === CUSTOM) setCustomTtl(true);
            else {
              setCustomTtl(false);
              form.setValue('ttl', event.target.value, { shouldValidate: true });
            }
          }}
          options={[...TTL_PRESETS.map((p) => ({ value: String(p.seconds), label: p.label })), { value: CUSTOM, label: 'Custom…' }]}
          hint="How long resolvers may cache the record"
        />
        {customTtl ? (
          <TextField
            label="Custom TTL"
            hint={ttl.ok ? `${ttl.value} seconds = ${ttlInWords(ttl.value)}` : 'Seconds, or with a unit: 300, 5m, 1h, 1d'}
            error={formState.errors.ttl?.message}
            inputMode="text"
            {...register('ttl')}
          />
        ) : formState.errors.ttl ? (
          <p className="text-xs font-medium text-red-700 dark:text-red-400">{formState.errors.ttl.message}</p>
        ) : null}
      </div>

      {notes ? (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <TextField
            label="Comment"
            hint={`A note for people, kept with the record and signed with it; never served in DNS (at most ${MAX_COMMENT} characters)`}
            error={formState.errors.comment?.message}
            autoComplete="off"
            {...register('comment')}
          />
          <TextField
            label="Tags"
            hint="Separated by commas, each name or name:value, e.g. prod, team:web"
            error={formState.errors.tags?.message}
            autoComplete="off"
            spellCheck={false}
            {...register('tags')}
          />
        </div>
      ) : null}

      {formError ? (
        <Notice tone={formError.tone ?? 'danger'} title={formError.title}>
          {formError.description}
        </Notice>
      ) : null}

      {record && forwardedApex?.(record) ? (
        <Notice tone="info" title={`${zoneName} is forwarded`}>
          While forwarding is on, the A and AAAA records at the apex belong to forwarding (the forwarder's addresses). Turn forwarding off in the
          Forwarding panel first to use your own.
        </Notice>
      ) : null}

      {unparkFirst && record ? (
        <>
          <Notice tone="info" title={`${zoneName} is parked`}>
            Its address at the apex is the parking page's. Unpark and {mode === 'add' ? 'add' : 'save'} stops parking (your own records stay) and
            then {mode === 'add' ? 'adds' : 'saves'} this record, in one step.
          </Notice>
          <SigningNotice
            lines={[
              `1. Stop parking ${zoneName}: the parking records go, your own records stay`,
              `2. ${verb} one record in ${zoneName}: ${recordInWords(record, zoneName)}, TTL ${ttlInWords(record.ttl)}`,
            ]}
          />
        </>
      ) : canSignNow && record ? (
        <SigningNotice
          lines={[
            `${verb} one record in ${zoneName}: ${recordInWords(record, zoneName)}`,
            `TTL ${ttlInWords(record.ttl)}`,
            ...notesLines(record, mode === 'edit' ? initial : null),
            ...(idna.conversions.length > 0 ? [`International names are signed in their DNS form: ${idna.conversions.map(conversionText).join(', ')}`] : []),
            ...(signingNotes?.(record) ?? []),
          ]}
        />
      ) : null}

      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="secondary" onClick={() => void submit('draft')()} loading={submitting === 'draft'} disabled={submitting !== null}>
          {canSignNow ? 'Add to change set' : 'Save in change set'}
        </Button>
        {unparkFirst ? (
          <Button type="submit" loading={submitting === 'unpark-and-sign'} disabled={submitting !== null}>
            {mode === 'add' ? 'Unpark and add' : 'Unpark and save'}
          </Button>
        ) : canSignNow ? (
          <Button type="submit" loading={submitting === 'sign'} disabled={submitting !== null}>
            {mode === 'add' ? 'Add and sign' : 'Save and sign'}
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The record without its notes: what is sent where the service keeps none. */
function withoutRecordNotes({ comment: _comment, tags: _tags, ...record }: RecordInput): RecordInput {
  return record;
}

/** The notice's words for the notes: what an addition carries, or what an edit changes. */
function notesLines(record: RecordInput, initial: RecordFormValues | null): string[] {
  if (record.comment === undefined && record.tags === undefined) return [];
  const comment = record.comment ?? '';
  const tags = record.tags ?? [];
  if (!initial) {
    return [comment ? `Comment: “${comment}”` : '', tags.length > 0 ? `Tags: ${tags.join(', ')}` : ''].filter(Boolean);
  }
  const before = { comment: (initial.comment ?? '').trim(), tags: parseTags(initial.tags ?? '') };
  const lines: string[] = [];
  if (before.comment !== comment) lines.push(comment ? `Comment changed to “${comment}”` : `Comment “${before.comment}” removed`);
  if (before.tags.join(',') !== tags.join(',')) lines.push(tags.length > 0 ? `Tags changed to ${tags.join(', ')} (were ${before.tags.join(', ') || 'none'})` : `Tags ${before.tags.join(', ')} removed`);
  return lines;
}

function RdataField({
  spec,
  current,
  error,
  register,
  conversion,
}: {
  spec: FieldSpec;
  /** The field's value now: a stored value outside the options (an unknown CAA tag) stays selectable. */
  current?: string;
  error?: string;
  register: ReturnType<typeof useForm<RecordFormValues>>['register'];
  conversion?: NameConversion;
}) {
  const hint = conversion ? `${conversionText(conversion)} (sent as the xn-- form)` : `e.g. ${spec.example}`;
  if (spec.options) {
    const options = current && !spec.options.some((o) => o.value === current) ? [...spec.options, { value: current, label: `${current} (not in the registry)` }] : spec.options;
    return <Select label={spec.label} options={options} error={error} hint={hint} {...register(spec.key)} />;
  }
  if (spec.multiline) {
    return (
      <div className="space-y-1 sm:col-span-2">
        <label htmlFor={`field-${spec.key}`} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
          {spec.label}
        </label>
        <textarea
          id={`field-${spec.key}`}
          rows={3}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`field-${spec.key}-help`}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-900"
          {...register(spec.key)}
        />
        <p id={`field-${spec.key}-help`} className={error ? 'text-xs font-medium text-red-700 dark:text-red-400' : 'text-xs text-slate-600 dark:text-slate-400'}>
          {error ?? `${hint}. Long text is split into 255-byte strings for you (up to 65,535 bytes).`}
        </p>
      </div>
    );
  }
  const wide = spec.max === undefined;
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <TextField label={spec.label} hint={hint} error={error} autoComplete="off" spellCheck={false} inputMode={wide ? 'text' : 'numeric'} {...register(spec.key)} />
    </div>
  );
}
