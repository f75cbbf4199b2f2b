import { useState } from 'react';
import type { FieldError, FieldErrors, UseFormRegister } from 'react-hook-form';
import { rdataWarnings } from '#core/dns/rdata.ts';
import { MAX_COMMENT } from '#core/dns/record-notes.ts';
import { ttlInWords, TTL_PRESETS } from '#core/dns/ttl.ts';
import { SigningNotice } from '@/lib/signing/SigningNotice.tsx';
import { Button, Notice, Select, TextField } from '@/ui/index.ts';
import type { SubmitMode } from '../model/form-mode.ts';
import { CUSTOM_TTL, showsAliasExplained, signLines, unparkAndSignLines, type RecordFormView } from '../model/record-form-view.ts';
import { ALIAS_EXPLAINED, type EditableType, type RecordFormValues, type RecordInput } from '../model/record-form.ts';

/** The record form's parts below its type, name and data fields (RecordForm.tsx), in the order it shows them. */

type Register = UseFormRegister<RecordFormValues>;

/** ALIAS explained where it is meant, and the warnings a value deserves (accepted, but likely not what was meant). */
export function ValueNotices({ type, name, record }: { type: EditableType; name: string | undefined; record: RecordInput | null }) {
  return (
    <>
      {showsAliasExplained(type, name) ? (
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
    </>
  );
}

/** The TTL: a preset, or a custom value in seconds or with a unit, said back in words. */
export function TtlFields({ view, error, register, setTtl }: { view: RecordFormView; error: FieldError | undefined; register: Register; setTtl: (ttl: string) => void }) {
  const { ttl, presetMatch } = view;
  const [customTtl, setCustomTtl] = useState(presetMatch === CUSTOM_TTL);
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <Select
        label="TTL"
        value={customTtl ? CUSTOM_TTL : presetMatch}
        onChange={(event) => {
          if (event.target.value === CUSTOM_TTL) setCustomTtl(true);
          else {
            setCustomTtl(false);
            setTtl(event.target.value);
          }
        }}
        options={[...TTL_PRESETS.map((p) => ({ value: String(p.seconds), label: p.label })), { value: CUSTOM_TTL, label: 'Custom…' }]}
        hint="How long resolvers may cache the record"
      />
      {customTtl ? (
        <TextField
          label="Custom TTL"
          hint={ttl.ok ? `${ttl.value} seconds = ${ttlInWords(ttl.value)}` : 'Seconds, or with a unit: 300, 5m, 1h, 1d'}
          error={error?.message}
          inputMode="text"
          {...register('ttl')}
        />
      ) : error ? (
        <p className="text-xs font-medium text-red-700 dark:text-red-400">{error.message}</p>
      ) : null}
    </div>
  );
}

/** The record's comment and tags, where the service signs and keeps them. */
export function NotesFields({ errors, register }: { errors: FieldErrors<RecordFormValues>; register: Register }) {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      <TextField
        label="Comment"
        hint={`A note for people, kept with the record and signed with it; never served in DNS (at most ${MAX_COMMENT} characters)`}
        error={errors.comment?.message}
        autoComplete="off"
        {...register('comment')}
      />
      <TextField
        label="Tags"
        hint="Separated by commas, each name or name:value, e.g. prod, team:web"
        error={errors.tags?.message}
        autoComplete="off"
        spellCheck={false}
        {...register('tags')}
      />
    </div>
  );
}

/**
 * What saving will do, before the wallet opens: the forwarder's apex said, then either the two steps of unparking
 * first or the one record to sign; nothing while the record only goes to the change set.
 */
export function SigningSection(props: {
  zoneName: string;
  mode: 'add' | 'edit';
  initial: RecordFormValues;
  view: RecordFormView;
  canSignNow: boolean;
  unparkFirst: boolean;
  signingNotes?: (record: RecordInput) => string[];
  forwardedApex?: (record: RecordInput) => boolean;
}) {
  const { zoneName, mode, view, canSignNow, unparkFirst } = props;
  const { record } = view;
  return (
    <>
      {record && props.forwardedApex?.(record) ? (
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
          <SigningNotice lines={unparkAndSignLines(record, zoneName, mode)} />
        </>
      ) : canSignNow && record ? (
        <SigningNotice
          lines={signLines({ record, zoneName, mode, initial: props.initial, conversions: view.conversions, typeNotes: props.signingNotes?.(record) ?? [] })}
        />
      ) : null}
    </>
  );
}

/** Cancel, keep in the change set, and the signing button of the moment (unpark and save, or save and sign). */
export function FormActions(props: {
  mode: 'add' | 'edit';
  canSignNow: boolean;
  unparkFirst: boolean;
  submitting: SubmitMode | null;
  onDraft: () => void;
  onCancel: () => void;
}) {
  const { mode, canSignNow, unparkFirst, submitting } = props;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <Button variant="ghost" onClick={props.onCancel}>
        Cancel
      </Button>
      <Button variant="secondary" onClick={props.onDraft} loading={submitting === 'draft'} disabled={submitting !== null}>
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
  );
}
